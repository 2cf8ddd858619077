// Command rebootlab-csi is rebootlab's own minimal CSI driver for volumes that need attaching
// (CSIDriver attachRequired: true), so the attach/detach controller of kube-controller-manager creates
// VolumeAttachments and applies its own Multi-Attach and force-detach rules to them:
//
//	rebootlab-csi node         the node plugin (a DaemonSet): CSI Identity and Node services on a socket under
//	                           /var/lib/kubelet/plugins/<driver>, registered with the kubelet's plugin watcher
//	                           through a socket in /var/lib/kubelet/plugins_registry; NodeStageVolume bind-mounts a
//	                           per-volume directory of the node, NodePublishVolume bind-mounts that into the pod.
//	rebootlab-csi controller   the controller part (a Deployment): a provisioner that creates a PersistentVolume for
//	                           each claim of the driver's StorageClasses and deletes it once released, and an attacher
//	                           that acknowledges VolumeAttachments as the external attacher would (finalizer, then
//	                           status.attached: true) and lets them go on detach (finalizer removed).
//
// The volume's data is a directory on the node that staged it: it stays on that node, as on a local disk.
package main

import (
	"fmt"
	"os"
)

// driverName is the CSI driver name: CSIDriver object, StorageClass provisioner, VolumeAttachment spec.attacher.
const driverName = "attachable.csi.rebootlab.dev"

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "node":
		err = runNode()
	case "controller":
		err = runController()
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "rebootlab-csi %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: rebootlab-csi node|controller  (environment: NODE_NAME for node)")
	os.Exit(2)
}
