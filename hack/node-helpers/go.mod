module rebootlab.dev/node-helpers

go 1.24.0
