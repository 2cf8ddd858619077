// The controller part: provisioner (claims → PersistentVolumes) and attacher (VolumeAttachments acknowledged).
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	storagev1client "k8s.io/client-go/kubernetes/typed/storage/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	storagelisters "k8s.io/client-go/listers/storage/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

const (
	// provisionerAnnotation is set by the PersistentVolume controller on a claim to name the provisioner that must
	// provision it (k8s.io/kubernetes pkg/controller/volume/persistentvolume, AnnStorageProvisioner).
	provisionerAnnotation = "volume.kubernetes.io/storage-provisioner"
	// provisionedByAnnotation marks a PersistentVolume with the provisioner that made it (AnnDynamicallyProvisioned).
	provisionedByAnnotation = "pv.kubernetes.io/provisioned-by"
	// managedByLabel marks the PersistentVolumes rebootlab removes when it prepares a cluster for the next run.
	managedByLabel = "app.kubernetes.io/managed-by"
	// resyncPeriod re-delivers every object now and then, so a failed update is retried even without a new event.
	resyncPeriod = 30 * time.Second
)

// attacherFinalizer is the finalizer the attacher keeps on VolumeAttachments it attached, named as the external
// attacher names its own ("external-attacher/" + the driver name with every non-alphanumeric character as "-").
var attacherFinalizer = "external-attacher/" + regexp.MustCompile(`[^a-zA-Z0-9-]`).ReplaceAllString(driverName, "-")

type controller struct {
	core        corev1client.CoreV1Interface
	storage     storagev1client.StorageV1Interface
	claims      corelisters.PersistentVolumeClaimLister
	volumes     corelisters.PersistentVolumeLister
	classes     storagelisters.StorageClassLister
	attachments storagelisters.VolumeAttachmentLister
	queue       workqueue.TypedRateLimitingInterface[item]
}

// item is one object to reconcile: a claim (namespace/name), a PersistentVolume or a VolumeAttachment (name).
type item struct {
	kind      string // "claim", "volume" or "attachment"
	namespace string
	name      string
}

func runController() error {
	config, err := rest.InClusterConfig()
	if err != nil {
		return err
	}
	// The typed clients of the two API groups used, not the whole clientset (52 MB → 41 MB binary).
	core, err := corev1client.NewForConfig(config)
	if err != nil {
		return err
	}
	storage, err := storagev1client.NewForConfig(config)
	if err != nil {
		return err
	}
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer cancel()
	informer := func(client cache.Getter, resource string, object runtime.Object) cache.SharedIndexInformer {
		lw := cache.NewListWatchFromClient(client, resource, metav1.NamespaceAll, fields.Everything())
		return cache.NewSharedIndexInformer(lw, object, resyncPeriod, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	}
	claims := informer(core.RESTClient(), "persistentvolumeclaims", &corev1.PersistentVolumeClaim{})
	volumes := informer(core.RESTClient(), "persistentvolumes", &corev1.PersistentVolume{})
	classes := informer(storage.RESTClient(), "storageclasses", &storagev1.StorageClass{})
	attachments := informer(storage.RESTClient(), "volumeattachments", &storagev1.VolumeAttachment{})
	c := &controller{
		core:        core,
		storage:     storage,
		claims:      corelisters.NewPersistentVolumeClaimLister(claims.GetIndexer()),
		volumes:     corelisters.NewPersistentVolumeLister(volumes.GetIndexer()),
		classes:     storagelisters.NewStorageClassLister(classes.GetIndexer()),
		attachments: storagelisters.NewVolumeAttachmentLister(attachments.GetIndexer()),
		queue:       workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[item]()),
	}
	enqueue := func(kind string) cache.ResourceEventHandlerFuncs {
		add := func(obj any) {
			if o, ok := obj.(metav1.Object); ok {
				c.queue.Add(item{kind: kind, namespace: o.GetNamespace(), name: o.GetName()})
			}
		}
		return cache.ResourceEventHandlerFuncs{AddFunc: add, UpdateFunc: func(_, obj any) { add(obj) }}
	}
	for kind, inf := range map[string]cache.SharedIndexInformer{"claim": claims, "volume": volumes, "attachment": attachments} {
		if _, err := inf.AddEventHandler(enqueue(kind)); err != nil {
			return err
		}
	}
	all := []cache.SharedIndexInformer{claims, volumes, classes, attachments}
	for _, inf := range all {
		go inf.Run(ctx.Done())
	}
	for _, inf := range all {
		if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
			return fmt.Errorf("caches not synced: %w", ctx.Err())
		}
	}
	log.Printf("controller of %s: provisioner and attacher running", driverName)
	go func() {
		<-ctx.Done()
		c.queue.ShutDown()
	}()
	for c.processNext(ctx) {
	}
	return nil
}

func (c *controller) processNext(ctx context.Context) bool {
	it, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(it)
	var err error
	switch it.kind {
	case "claim":
		err = c.syncClaim(ctx, it.namespace, it.name)
	case "volume":
		err = c.syncVolume(ctx, it.name)
	case "attachment":
		err = c.syncAttachment(ctx, it.name)
	}
	if err != nil {
		log.Printf("%s %s: %v (retrying)", it.kind, it.name, err)
		c.queue.AddRateLimited(it)
		return true
	}
	c.queue.Forget(it)
	return true
}

// syncClaim provisions a PersistentVolume `pvc-<claim uid>` for an unbound claim the PersistentVolume controller
// handed to this driver; the PersistentVolume controller then binds the two.
func (c *controller) syncClaim(ctx context.Context, namespace, name string) error {
	claim, err := c.claims.PersistentVolumeClaims(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if claim.Spec.VolumeName != "" || claim.Annotations[provisionerAnnotation] != driverName || claim.DeletionTimestamp != nil {
		return nil
	}
	volumeName := "pvc-" + string(claim.UID)
	if _, err := c.volumes.Get(volumeName); err == nil {
		return nil
	}
	className := ""
	if claim.Spec.StorageClassName != nil {
		className = *claim.Spec.StorageClassName
	}
	class, err := c.classes.Get(className)
	if err != nil {
		return fmt.Errorf("StorageClass %q of claim %s/%s: %w", className, namespace, name, err)
	}
	reclaim := corev1.PersistentVolumeReclaimDelete
	if class.ReclaimPolicy != nil {
		reclaim = *class.ReclaimPolicy
	}
	size, ok := claim.Spec.Resources.Requests[corev1.ResourceStorage]
	if !ok {
		return fmt.Errorf("claim %s/%s requests no storage", namespace, name)
	}
	filesystem := corev1.PersistentVolumeFilesystem
	if claim.Spec.VolumeMode != nil && *claim.Spec.VolumeMode != filesystem {
		log.Printf("claim %s/%s asks for volumeMode %s: only Filesystem is provided", namespace, name, *claim.Spec.VolumeMode)
		return nil
	}
	volume := &corev1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{
			Name:        volumeName,
			Labels:      map[string]string{managedByLabel: "rebootlab"},
			Annotations: map[string]string{provisionedByAnnotation: driverName},
		},
		Spec: corev1.PersistentVolumeSpec{
			Capacity:                      corev1.ResourceList{corev1.ResourceStorage: size},
			AccessModes:                   claim.Spec.AccessModes,
			PersistentVolumeReclaimPolicy: reclaim,
			StorageClassName:              className,
			VolumeMode:                    &filesystem,
			ClaimRef: &corev1.ObjectReference{
				Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: namespace, Name: name, UID: claim.UID,
			},
			PersistentVolumeSource: corev1.PersistentVolumeSource{CSI: &corev1.CSIPersistentVolumeSource{Driver: driverName, VolumeHandle: volumeName}},
		},
	}
	_, err = c.core.PersistentVolumes().Create(ctx, volume, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	if err == nil {
		log.Printf("provisioned %s for claim %s/%s", volumeName, namespace, name)
	}
	return err
}

// syncVolume deletes a released PersistentVolume of this driver whose reclaim policy is Delete, as an external
// provisioner does (the volume's directories on the nodes stay; the cluster is thrown away after the runs).
func (c *controller) syncVolume(ctx context.Context, name string) error {
	volume, err := c.volumes.Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if volume.Annotations[provisionedByAnnotation] != driverName || volume.Status.Phase != corev1.VolumeReleased ||
		volume.Spec.PersistentVolumeReclaimPolicy != corev1.PersistentVolumeReclaimDelete || volume.DeletionTimestamp != nil {
		return nil
	}
	err = c.core.PersistentVolumes().Delete(ctx, name, metav1.DeleteOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err == nil {
		log.Printf("deleted released %s", name)
	}
	return err
}

// syncAttachment acknowledges a VolumeAttachment of this driver as the external attacher would: it adds its finalizer,
// then sets status.attached (there is nothing to attach: the data is a directory on every node); on detach (the
// attach/detach controller deleted the object) it removes the finalizer, which lets the deletion complete.
func (c *controller) syncAttachment(ctx context.Context, name string) error {
	cached, err := c.attachments.Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if cached.Spec.Attacher != driverName {
		return nil
	}
	va := cached.DeepCopy()
	has := slices.Contains(va.Finalizers, attacherFinalizer)
	if va.DeletionTimestamp != nil {
		if !has {
			return nil
		}
		va.Finalizers = slices.DeleteFunc(va.Finalizers, func(f string) bool { return f == attacherFinalizer })
		_, err = c.storage.VolumeAttachments().Update(ctx, va, metav1.UpdateOptions{})
		if err == nil {
			log.Printf("detached %s from %s", volumeOf(va), va.Spec.NodeName)
		}
		return ignoreNotFound(err)
	}
	if !has {
		va.Finalizers = append(va.Finalizers, attacherFinalizer)
		va, err = c.storage.VolumeAttachments().Update(ctx, va, metav1.UpdateOptions{})
		if err != nil {
			return ignoreNotFound(err)
		}
	}
	if va.Status.Attached {
		return nil
	}
	va.Status.Attached = true
	va.Status.AttachError = nil
	_, err = c.storage.VolumeAttachments().UpdateStatus(ctx, va, metav1.UpdateOptions{})
	if err == nil {
		log.Printf("attached %s to %s", volumeOf(va), va.Spec.NodeName)
	}
	return ignoreNotFound(err)
}

func volumeOf(va *storagev1.VolumeAttachment) string {
	if va.Spec.Source.PersistentVolumeName != nil {
		return *va.Spec.Source.PersistentVolumeName
	}
	return va.Name
}

func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

func init() {
	log.SetFlags(log.LstdFlags | log.Lmicroseconds | log.LUTC)
	log.SetOutput(os.Stderr)
}
