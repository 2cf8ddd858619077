// The node plugin: CSI Identity and Node services, and the registration the kubelet's plugin watcher asks for.
package main

import (
	"context"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"syscall"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	registration "k8s.io/kubelet/pkg/apis/pluginregistration/v1"
)

const (
	// kubeletPluginsDir is where CSI node plugins put their sockets (the kubelet's --root-dir /var/lib/kubelet).
	kubeletPluginsDir = "/var/lib/kubelet/plugins"
	// registrationDir is the directory the kubelet's plugin watcher watches for registration sockets
	// (k8s.io/kubernetes pkg/kubelet/pluginmanager, "plugins_registry" under the kubelet's root directory).
	registrationDir = "/var/lib/kubelet/plugins_registry"
	// volumesDir holds one directory per volume on the node: the volume's data.
	volumesDir = "/var/lib/rebootlab-csi/volumes"
)

// volumeIDPattern is what this driver's provisioner names volumes (the PersistentVolume name, `pvc-<claim uid>`):
// a volume ID is a path element below volumesDir, so anything else is refused.
var volumeIDPattern = regexp.MustCompile(`^[a-z0-9][-a-z0-9.]{0,252}$`)

func csiSocketPath() string { return filepath.Join(kubeletPluginsDir, driverName, "csi.sock") }

func registrationSocketPath() string { return filepath.Join(registrationDir, driverName+"-reg.sock") }

func runNode() error {
	nodeName := os.Getenv("NODE_NAME")
	if nodeName == "" {
		return fmt.Errorf("NODE_NAME is not set (the DaemonSet passes spec.nodeName through the downward API)")
	}
	if err := os.MkdirAll(volumesDir, 0o755); err != nil {
		return err
	}
	csiServer := grpc.NewServer(grpc.UnaryInterceptor(logCalls))
	csi.RegisterIdentityServer(csiServer, identity{})
	csi.RegisterNodeServer(csiServer, &node{nodeID: nodeName})
	// The CSI socket listens first: the kubelet calls NodeGetInfo on it as soon as registration succeeds.
	csiListener, err := listenUnix(csiSocketPath())
	if err != nil {
		return err
	}
	go serve(csiServer, csiListener)
	regServer := grpc.NewServer()
	registration.RegisterRegistrationServer(regServer, registrar{})
	regListener, err := listenUnix(registrationSocketPath())
	if err != nil {
		return err
	}
	go serve(regServer, regListener)
	log.Printf("node plugin %s on %s: CSI socket %s, registration socket %s", driverName, nodeName, csiSocketPath(), registrationSocketPath())
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	<-stop
	regServer.Stop()
	csiServer.Stop()
	// Without its registration socket the kubelet deregisters the driver on this node.
	_ = os.Remove(registrationSocketPath())
	return nil
}

// listenUnix listens on a Unix socket at path, replacing a socket left by an earlier run of the plugin.
func listenUnix(path string) (net.Listener, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	return net.Listen("unix", path)
}

func serve(server *grpc.Server, listener net.Listener) {
	if err := server.Serve(listener); err != nil {
		log.Fatalf("serving %s: %v", listener.Addr(), err)
	}
}

// logCalls logs each CSI call and its error, one line each: the pod log then shows every stage, publish and unstage.
func logCalls(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	resp, err := handler(ctx, req)
	switch info.FullMethod {
	case "/csi.v1.Identity/Probe", "/csi.v1.Node/NodeGetCapabilities":
		// Asked every few seconds: not worth a line.
	default:
		if err != nil {
			log.Printf("%s %v: %v", info.FullMethod, req, err)
		} else {
			log.Printf("%s %v", info.FullMethod, req)
		}
	}
	return resp, err
}

// registrar answers the kubelet's plugin watcher (k8s.io/kubelet/pkg/apis/pluginregistration/v1).
type registrar struct {
	registration.UnimplementedRegistrationServer
}

func (registrar) GetInfo(context.Context, *registration.InfoRequest) (*registration.PluginInfo, error) {
	return &registration.PluginInfo{Type: registration.CSIPlugin, Name: driverName, Endpoint: csiSocketPath(), SupportedVersions: []string{"1.0.0"}}, nil
}

func (registrar) NotifyRegistrationStatus(_ context.Context, s *registration.RegistrationStatus) (*registration.RegistrationStatusResponse, error) {
	if s.PluginRegistered {
		log.Printf("registered with the kubelet")
	} else {
		log.Printf("the kubelet refused the registration: %s", s.Error)
	}
	return &registration.RegistrationStatusResponse{}, nil
}

type identity struct {
	csi.UnimplementedIdentityServer
}

func (identity) GetPluginInfo(context.Context, *csi.GetPluginInfoRequest) (*csi.GetPluginInfoResponse, error) {
	return &csi.GetPluginInfoResponse{Name: driverName, VendorVersion: "v1"}, nil
}

// GetPluginCapabilities lists no controller service: attaching is done by rebootlab-csi controller through the API
// (VolumeAttachment status), not through ControllerPublishVolume.
func (identity) GetPluginCapabilities(context.Context, *csi.GetPluginCapabilitiesRequest) (*csi.GetPluginCapabilitiesResponse, error) {
	return &csi.GetPluginCapabilitiesResponse{}, nil
}

func (identity) Probe(context.Context, *csi.ProbeRequest) (*csi.ProbeResponse, error) {
	return &csi.ProbeResponse{}, nil
}

type node struct {
	csi.UnimplementedNodeServer
	nodeID string
}

func (n *node) NodeGetInfo(context.Context, *csi.NodeGetInfoRequest) (*csi.NodeGetInfoResponse, error) {
	return &csi.NodeGetInfoResponse{NodeId: n.nodeID}, nil
}

// NodeGetCapabilities announces STAGE_UNSTAGE_VOLUME: the kubelet then stages the volume once per node (MountDevice,
// after the VolumeAttachment is attached) before publishing it into each pod, as for a real block device.
func (n *node) NodeGetCapabilities(context.Context, *csi.NodeGetCapabilitiesRequest) (*csi.NodeGetCapabilitiesResponse, error) {
	return &csi.NodeGetCapabilitiesResponse{Capabilities: []*csi.NodeServiceCapability{{
		Type: &csi.NodeServiceCapability_Rpc{Rpc: &csi.NodeServiceCapability_RPC{Type: csi.NodeServiceCapability_RPC_STAGE_UNSTAGE_VOLUME}},
	}}}, nil
}

// NodeStageVolume bind-mounts the volume's directory on this node (created on first use) at the staging path.
func (n *node) NodeStageVolume(_ context.Context, req *csi.NodeStageVolumeRequest) (*csi.NodeStageVolumeResponse, error) {
	if err := checkVolume(req.GetVolumeId(), req.GetStagingTargetPath(), req.GetVolumeCapability()); err != nil {
		return nil, err
	}
	source := filepath.Join(volumesDir, req.GetVolumeId())
	if err := os.MkdirAll(source, 0o777); err != nil {
		return nil, status.Errorf(codes.Internal, "creating %s: %v", source, err)
	}
	// MkdirAll applies the umask; the workload runs as any user.
	if err := os.Chmod(source, 0o777); err != nil {
		return nil, status.Errorf(codes.Internal, "chmod %s: %v", source, err)
	}
	if err := bindMount(source, req.GetStagingTargetPath(), false); err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	return &csi.NodeStageVolumeResponse{}, nil
}

func (n *node) NodeUnstageVolume(_ context.Context, req *csi.NodeUnstageVolumeRequest) (*csi.NodeUnstageVolumeResponse, error) {
	if req.GetVolumeId() == "" || req.GetStagingTargetPath() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume_id and staging_target_path are required")
	}
	if err := unmount(req.GetStagingTargetPath()); err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	return &csi.NodeUnstageVolumeResponse{}, nil
}

// NodePublishVolume bind-mounts the staging path into the pod's volume directory.
func (n *node) NodePublishVolume(_ context.Context, req *csi.NodePublishVolumeRequest) (*csi.NodePublishVolumeResponse, error) {
	if err := checkVolume(req.GetVolumeId(), req.GetTargetPath(), req.GetVolumeCapability()); err != nil {
		return nil, err
	}
	if req.GetStagingTargetPath() == "" {
		return nil, status.Error(codes.FailedPrecondition, "staging_target_path is required: the volume must be staged first")
	}
	mounted, err := isMountPoint(req.GetStagingTargetPath())
	if err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	if !mounted {
		return nil, status.Errorf(codes.FailedPrecondition, "%s is not staged at %s", req.GetVolumeId(), req.GetStagingTargetPath())
	}
	if err := bindMount(req.GetStagingTargetPath(), req.GetTargetPath(), req.GetReadonly()); err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	return &csi.NodePublishVolumeResponse{}, nil
}

func (n *node) NodeUnpublishVolume(_ context.Context, req *csi.NodeUnpublishVolumeRequest) (*csi.NodeUnpublishVolumeResponse, error) {
	if req.GetVolumeId() == "" || req.GetTargetPath() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume_id and target_path are required")
	}
	if err := unmount(req.GetTargetPath()); err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	if err := os.Remove(req.GetTargetPath()); err != nil && !os.IsNotExist(err) {
		return nil, status.Errorf(codes.Internal, "removing %s: %v", req.GetTargetPath(), err)
	}
	return &csi.NodeUnpublishVolumeResponse{}, nil
}

// checkVolume refuses requests this driver cannot serve: a volume ID that is not one of its own names, no target
// path, or a block volume (only filesystem volumes, which are directories here).
func checkVolume(volumeID, target string, capability *csi.VolumeCapability) error {
	if !volumeIDPattern.MatchString(volumeID) {
		return status.Errorf(codes.InvalidArgument, "volume_id %q is not a volume of %s", volumeID, driverName)
	}
	if target == "" || !filepath.IsAbs(target) {
		return status.Errorf(codes.InvalidArgument, "target path %q must be absolute", target)
	}
	if capability == nil || capability.GetMount() == nil {
		return status.Error(codes.InvalidArgument, "only filesystem (mount) volumes are supported")
	}
	return nil
}
