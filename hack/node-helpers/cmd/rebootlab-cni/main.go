// Command rebootlab-cni is the pod network agent of rebootlab's offline node image, run as a
// host-network DaemonSet (hack/node-image/default-cni.yaml). On every node it:
//   - writes a CNI conflist (ptp + host-local on the node's spec.podCIDR, portmap) so the kubelet
//     can start pods; IPAM state lives under /run so a rebooted node hands out fresh addresses,
//   - routes every other node's podCIDR via that node's InternalIP (all nodes share one L2 network),
//   - masquerades traffic from pods to destinations outside the cluster pod subnet.
//
// It talks to the API server directly with its service account (no client library: the node image
// is built offline and this stays a dependency-free module), re-reading the node list every few
// seconds so a node that comes back with a new address is routed again.
package main

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

const (
	serviceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount"
	conflistPath      = "/etc/cni/net.d/10-rebootlab.conflist"
	resyncInterval    = 5 * time.Second
)

type nodeList struct {
	Items []struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
		Spec struct {
			PodCIDR string `json:"podCIDR"`
		} `json:"spec"`
		Status struct {
			Addresses []struct {
				Type    string `json:"type"`
				Address string `json:"address"`
			} `json:"addresses"`
		} `json:"status"`
	} `json:"items"`
}

func main() {
	nodeName := mustEnv("NODE_NAME")
	podSubnet := mustEnv("POD_SUBNET")
	endpoint := os.Getenv("CONTROL_PLANE_ENDPOINT")
	if endpoint == "" {
		endpoint = os.Getenv("KUBERNETES_SERVICE_HOST") + ":" + os.Getenv("KUBERNETES_SERVICE_PORT")
	}
	client, err := newAPIClient()
	if err != nil {
		log.Fatalf("rebootlab-cni: %v", err)
	}
	masqueradeConfigured := false
	for {
		if err := syncOnce(client, "https://"+endpoint, nodeName, podSubnet); err != nil {
			log.Printf("rebootlab-cni: sync: %v", err)
		}
		if !masqueradeConfigured {
			if err := ensureMasquerade(podSubnet); err != nil {
				log.Printf("rebootlab-cni: masquerade: %v", err)
			} else {
				masqueradeConfigured = true
			}
		}
		time.Sleep(resyncInterval)
	}
}

func mustEnv(name string) string {
	value := os.Getenv(name)
	if value == "" {
		log.Fatalf("rebootlab-cni: environment variable %s is required", name)
	}
	return value
}

type apiClient struct {
	http  *http.Client
	token string
}

func newAPIClient() (*apiClient, error) {
	caPEM, err := os.ReadFile(filepath.Join(serviceAccountDir, "ca.crt"))
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return nil, fmt.Errorf("no certificate in %s/ca.crt", serviceAccountDir)
	}
	return &apiClient{http: &http.Client{
		Timeout:   10 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
	}}, nil
}

func (c *apiClient) listNodes(baseURL string) (*nodeList, error) {
	// The projected token is rotated by the kubelet: read it on every request.
	token, err := os.ReadFile(filepath.Join(serviceAccountDir, "token"))
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodGet, baseURL+"/api/v1/nodes", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token)))
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /api/v1/nodes: %s", resp.Status)
	}
	var nodes nodeList
	return &nodes, json.NewDecoder(resp.Body).Decode(&nodes)
}

func syncOnce(client *apiClient, baseURL, self, podSubnet string) error {
	nodes, err := client.listNodes(baseURL)
	if err != nil {
		return err
	}
	for _, node := range nodes.Items {
		if node.Spec.PodCIDR == "" {
			continue
		}
		if node.Metadata.Name == self {
			if err := writeConflist(node.Spec.PodCIDR); err != nil {
				return err
			}
			continue
		}
		internalIP := ""
		for _, address := range node.Status.Addresses {
			if address.Type == "InternalIP" && !strings.Contains(address.Address, ":") {
				internalIP = address.Address
			}
		}
		if internalIP == "" {
			continue
		}
		if out, err := exec.Command("ip", "route", "replace", node.Spec.PodCIDR, "via", internalIP).CombinedOutput(); err != nil {
			log.Printf("rebootlab-cni: route %s via %s: %v: %s", node.Spec.PodCIDR, internalIP, err, out)
		}
	}
	return nil
}

func writeConflist(podCIDR string) error {
	conflist := fmt.Sprintf(`{
  "cniVersion": "0.4.0",
  "name": "rebootlab",
  "plugins": [
    {
      "type": "ptp",
      "ipMasq": false,
      "mtu": 1500,
      "ipam": {
        "type": "host-local",
        "dataDir": "/run/cni-ipam-state",
        "routes": [{ "dst": "0.0.0.0/0" }],
        "ranges": [[{ "subnet": %q }]]
      }
    },
    { "type": "portmap", "capabilities": { "portMappings": true } }
  ]
}
`, podCIDR)
	if current, err := os.ReadFile(conflistPath); err == nil && string(current) == conflist {
		return nil
	}
	// Write then rename: the kubelet must never read a half-written file.
	tmp := conflistPath + ".tmp"
	if err := os.WriteFile(tmp, []byte(conflist), 0o644); err != nil {
		return err
	}
	log.Printf("rebootlab-cni: wrote %s for podCIDR %s", conflistPath, podCIDR)
	return os.Rename(tmp, conflistPath)
}

func ensureMasquerade(podSubnet string) error {
	rule := []string{"-t", "nat", "POSTROUTING", "-s", podSubnet, "!", "-d", podSubnet, "-m", "comment", "--comment", "rebootlab-cni masquerade", "-j", "MASQUERADE"}
	check := append([]string{"-t", "nat", "-C"}, rule[2:]...)
	if exec.Command("iptables", check...).Run() == nil {
		return nil
	}
	add := append([]string{"-t", "nat", "-A"}, rule[2:]...)
	if out, err := exec.Command("iptables", add...).CombinedOutput(); err != nil {
		return fmt.Errorf("%v: %s", err, out)
	}
	return nil
}
