// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// A many-HPA read decodes every pod of its scope, and a full decode of a pod
// builds its managed fields, annotations, volumes, environment and statuses
// only for ReducePod to drop them: at 20,000 pods that garbage is most of
// the client's CPU time. decodeReducedPod reads the protobuf encoding of a
// v1 Pod straight into what ReducePod keeps, skipping the rest of the bytes
// unread. TestDecodeReducedPodMatchesReducePod holds it to ReducePod of the
// generated decoder's result on randomly filled pods.
//
// Field numbers are those of k8s.io/api/core/v1/generated.proto and
// k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto (stable: protobuf
// field numbers of a served API are never reused).
const (
	podMetadata, podSpec, podStatus = 1, 2, 3

	metaName, metaNamespace, metaUID = 1, 3, 5
	metaCreation, metaDeletion       = 8, 9
	metaLabels, metaOwnerRef         = 11, 13

	specContainers, specNodeName, specInitContainers = 2, 10, 20
	specOverhead, specResources                      = 32, 40

	containerName, containerResources, containerRestartPolicy = 1, 8, 24

	statusPhase, statusConditions, statusStartTime = 1, 2, 7

	mapKey, mapValue = 1, 2
)

// eachField calls fn with the number and bytes of every length-delimited
// field of a protobuf message (strings, messages, map entries: every field
// read here is one). Fields of other wire types are skipped, as is a field
// fn does not know; a truncated or malformed message is an error.
func eachField(b []byte, fn func(num int, v []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if typ != protowire.BytesType {
			if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
				return fmt.Errorf("field %d: %w", num, protowire.ParseError(n))
			}
			b = b[n:]
			continue
		}
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return fmt.Errorf("field %d: %w", num, protowire.ParseError(n))
		}
		b = b[n:]
		if err := fn(int(num), v); err != nil {
			return err
		}
	}
	return nil
}

func decodeReducedPod(b []byte) (corev1.Pod, error) {
	var p corev1.Pod
	err := eachField(b, func(num int, v []byte) error {
		switch num {
		case podMetadata:
			return decodeMeta(v, &p.ObjectMeta)
		case podSpec:
			return decodeSpec(v, &p.Spec)
		case podStatus:
			return decodeStatus(v, &p.Status)
		}
		return nil
	})
	return p, err
}

func decodeMeta(b []byte, m *metav1.ObjectMeta) error {
	return eachField(b, func(num int, v []byte) error {
		switch num {
		case metaName:
			m.Name = string(v)
		case metaNamespace:
			m.Namespace = string(v)
		case metaUID:
			m.UID = types.UID(v)
		case metaCreation:
			return m.CreationTimestamp.Unmarshal(v)
		case metaDeletion:
			if m.DeletionTimestamp == nil {
				m.DeletionTimestamp = &metav1.Time{}
			}
			return m.DeletionTimestamp.Unmarshal(v)
		case metaLabels:
			k, val, err := stringEntry(v)
			if err != nil {
				return err
			}
			if m.Labels == nil {
				m.Labels = map[string]string{}
			}
			m.Labels[k] = val
		case metaOwnerRef:
			var o metav1.OwnerReference
			if err := o.Unmarshal(v); err != nil {
				return err
			}
			m.OwnerReferences = append(m.OwnerReferences, o)
		}
		return nil
	})
}

func decodeSpec(b []byte, s *corev1.PodSpec) error {
	return eachField(b, func(num int, v []byte) error {
		switch num {
		case specContainers:
			return appendContainer(v, &s.Containers)
		case specInitContainers:
			return appendContainer(v, &s.InitContainers)
		case specNodeName:
			s.NodeName = string(v)
		case specResources:
			if s.Resources == nil {
				s.Resources = &corev1.ResourceRequirements{}
			}
			return s.Resources.Unmarshal(v)
		case specOverhead:
			var k string
			var q resource.Quantity
			err := eachField(v, func(num int, v []byte) error {
				switch num {
				case mapKey:
					k = string(v)
				case mapValue:
					return q.Unmarshal(v)
				}
				return nil
			})
			if err != nil {
				return err
			}
			if s.Overhead == nil {
				s.Overhead = corev1.ResourceList{}
			}
			s.Overhead[corev1.ResourceName(k)] = q
		}
		return nil
	})
}

func appendContainer(b []byte, to *[]corev1.Container) error {
	var c corev1.Container
	err := eachField(b, func(num int, v []byte) error {
		switch num {
		case containerName:
			c.Name = string(v)
		case containerResources:
			return c.Resources.Unmarshal(v)
		case containerRestartPolicy:
			p := corev1.ContainerRestartPolicy(v)
			c.RestartPolicy = &p
		}
		return nil
	})
	*to = append(*to, c)
	return err
}

func decodeStatus(b []byte, s *corev1.PodStatus) error {
	return eachField(b, func(num int, v []byte) error {
		switch num {
		case statusPhase:
			s.Phase = corev1.PodPhase(v)
		case statusStartTime:
			if s.StartTime == nil {
				s.StartTime = &metav1.Time{}
			}
			return s.StartTime.Unmarshal(v)
		case statusConditions:
			var c corev1.PodCondition
			if err := c.Unmarshal(v); err != nil {
				return err
			}
			if c.Type == corev1.PodReady {
				c.Message, c.Reason = "", ""
				s.Conditions = append(s.Conditions, c)
			}
		}
		return nil
	})
}

// stringEntry reads an entry of a map<string, string>.
func stringEntry(b []byte) (k, v string, err error) {
	err = eachField(b, func(num int, b []byte) error {
		switch num {
		case mapKey:
			k = string(b)
		case mapValue:
			v = string(b)
		}
		return nil
	})
	return k, v, err
}

// protobufMagic starts every object in Kubernetes' protobuf encoding; a
// runtime.Unknown envelope follows (type meta, the object's message as raw
// bytes, content encoding, content type).
var protobufMagic = []byte{0x6b, 0x38, 0x73, 0x00}

const (
	unknownTypeMeta, unknownRaw, unknownEncoding = 1, 2, 3
	typeMetaAPIVersion, typeMetaKind             = 1, 2
)

// Fields of a list's metadata and of a list (PodList, in
// k8s.io/api/core/v1/generated.proto, PodMetricsList in
// k8s.io/metrics/pkg/apis/metrics/v1beta1/generated.proto; ListMeta in
// apimachinery's).
const (
	listMetadata, listItems = 1, 2
	listMetaContinue        = 3
)

// maxItemBytes bounds one encoded item of a list read by readList: a pod
// is at most what etcd stores in one value (1.5 MiB by default), and the
// bound keeps a corrupt length from allocating without end.
const maxItemBytes = 16 << 20

// errNotProtobufList means the body is not a protobuf-encoded list of the
// kind asked for (a server or proxy that answered in JSON, for one): the
// caller reads the list some other way.
var errNotProtobufList = errors.New("not a protobuf-encoded list")

// readPodList reads a PodList response body (readList), handing each pod
// to add as decodeReducedPod reads it.
func readPodList(body io.Reader, onCont func(string), add func(*corev1.Pod)) (cont string, err error) {
	return readList(body, "v1", "PodList", onCont, func(b []byte) error {
		p, err := decodeReducedPod(b)
		if err == nil {
			add(&p)
		}
		return err
	})
}

// readList reads a list response body in Kubernetes' protobuf encoding as
// it arrives, handing the encoding of each item to item, and returns the
// list's continue token; onCont, if set, gets the token as soon as the
// list's metadata is read (it comes before the items). Only one encoded
// item is held at a time: the list is never whole in memory, whatever its
// length. A body of another encoding, API version or kind is
// errNotProtobufList.
func readList(body io.Reader, apiVersion, kind string, onCont func(string), item func([]byte) error) (cont string, err error) {
	r := bufio.NewReaderSize(body, 64<<10)
	magic := make([]byte, len(protobufMagic))
	if _, err := io.ReadFull(r, magic); err != nil || !bytes.Equal(magic, protobufMagic) {
		return "", errNotProtobufList
	}
	// The envelope: the type meta, then the list as its raw bytes (the
	// encoder writes the fields in this order), then an empty content
	// encoding and type.
	var gotKind, gotAPIVersion string
	read := false
	for {
		num, typ, err := readTag(r)
		if errors.Is(err, io.EOF) {
			if !read {
				return cont, fmt.Errorf("%w: no list in the envelope", errNotProtobufList)
			}
			return cont, nil
		}
		if err != nil {
			return cont, err
		}
		if typ != protowire.BytesType {
			return cont, fmt.Errorf("envelope field %d: wire type %d", num, typ)
		}
		switch int(num) {
		case unknownRaw:
			if gotKind != kind || gotAPIVersion != apiVersion {
				return cont, fmt.Errorf("%w: the envelope says %s %s, not %s %s", errNotProtobufList, gotAPIVersion, gotKind, apiVersion, kind)
			}
			size, err := readVarint(r)
			if err != nil {
				return cont, err
			}
			if size > 1<<62 {
				return cont, fmt.Errorf("a list of %d bytes", size)
			}
			if cont, err = readListMessage(&io.LimitedReader{R: r, N: int64(size)}, onCont, item); err != nil {
				return cont, err
			}
			read = true
		default:
			v, err := readBytes(r, 1<<20)
			if err != nil {
				return cont, err
			}
			switch int(num) {
			case unknownTypeMeta:
				err = eachField(v, func(num int, v []byte) error {
					switch num {
					case typeMetaAPIVersion:
						gotAPIVersion = string(v)
					case typeMetaKind:
						gotKind = string(v)
					}
					return nil
				})
			case unknownEncoding:
				if len(v) > 0 {
					err = fmt.Errorf("%w: content encoding %q", errNotProtobufList, v)
				}
			}
			if err != nil {
				return cont, err
			}
		}
	}
}

// readListMessage reads the fields of a list message (metadata, items)
// from r.
func readListMessage(r *io.LimitedReader, onCont func(string), item func([]byte) error) (cont string, err error) {
	br := bufio.NewReader(r)
	var buf []byte
	for {
		num, typ, err := readTag(br)
		if errors.Is(err, io.EOF) {
			if r.N > 0 {
				return cont, io.ErrUnexpectedEOF
			}
			return cont, nil
		}
		if err != nil {
			return cont, err
		}
		if typ != protowire.BytesType {
			if err := skipValue(br, num, typ); err != nil {
				return cont, err
			}
			continue
		}
		size, err := readVarint(br)
		if err != nil {
			return cont, err
		}
		if size > maxItemBytes {
			return cont, fmt.Errorf("list field %d: %d bytes", num, size)
		}
		if uint64(cap(buf)) < size {
			buf = make([]byte, size)
		}
		buf = buf[:size]
		if _, err := io.ReadFull(br, buf); err != nil {
			return cont, unexpected(err)
		}
		switch int(num) {
		case listMetadata:
			err = eachField(buf, func(num int, v []byte) error {
				if num == listMetaContinue {
					cont = string(v)
				}
				return nil
			})
			if err == nil && onCont != nil {
				onCont(cont)
			}
		case listItems:
			err = item(buf)
		}
		if err != nil {
			return cont, err
		}
	}
}

// readTag reads a field's tag; io.EOF means the message ended cleanly.
func readTag(r io.ByteReader) (protowire.Number, protowire.Type, error) {
	v, err := binary.ReadUvarint(r)
	if err != nil {
		return 0, 0, err
	}
	num, typ := protowire.DecodeTag(v)
	if num < protowire.MinValidNumber {
		return 0, 0, fmt.Errorf("invalid field number %d", num)
	}
	return num, typ, nil
}

// readVarint reads a varint (protobuf's are the same as encoding/binary's).
func readVarint(r io.ByteReader) (uint64, error) {
	v, err := binary.ReadUvarint(r)
	return v, unexpected(err)
}

// readBytes reads a length-delimited value of at most limit bytes.
func readBytes(r *bufio.Reader, limit uint64) ([]byte, error) {
	size, err := readVarint(r)
	if err != nil {
		return nil, err
	}
	if size > limit {
		return nil, fmt.Errorf("a value of %d bytes", size)
	}
	v := make([]byte, size)
	_, err = io.ReadFull(r, v)
	return v, unexpected(err)
}

// skipValue skips a value of a wire type other than length-delimited.
func skipValue(r *bufio.Reader, num protowire.Number, typ protowire.Type) error {
	var n int
	switch typ {
	case protowire.VarintType:
		_, err := readVarint(r)
		return err
	case protowire.Fixed32Type:
		n = 4
	case protowire.Fixed64Type:
		n = 8
	default:
		return fmt.Errorf("field %d: unsupported wire type %d", num, typ)
	}
	_, err := r.Discard(n)
	return unexpected(err)
}

// unexpected turns the end of the input inside a value into an error.
func unexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
