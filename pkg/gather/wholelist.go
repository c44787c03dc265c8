// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"context"
	"errors"

	"k8s.io/client-go/rest"
)

// errPaged is a whole-list answer that came with a continue token: the
// server cut it into pages on its own, so it is read another way.
var errPaged = errors.New("the list came in pages")

// protoItem is a generated API type: a T whose pointer decodes protobuf.
type protoItem[T any] interface {
	*T
	Unmarshal([]byte) error
}

// listWhole reads the list of resource through rc (namespace ns, "" for
// all) in one request without a limit, in protobuf, decoding each item into
// a T as it arrives and handing it to keep, which takes what it needs: the
// item itself is dropped, so no more than one decoded item is held. The API
// server answers such a list from its watch cache, where the later pages of
// a paginated one may come from etcd (podPageSize). listKind is the list's
// kind (ReplicaSetList) and listVersion its group version (apps/v1). Any
// error, an answer in another encoding or one that breaks off included,
// means the list was not read whole: the caller drops what keep took and
// reads the list another way.
func listWhole[T any, PT protoItem[T]](ctx context.Context, rc rest.Interface, ns, resource, listVersion, listKind string, keep func(PT)) error {
	body, err := rc.Get().Namespace(ns).Resource(resource).Stream(ctx)
	if err != nil {
		return err
	}
	defer body.Close()
	cont, err := readList(body, listVersion, listKind, nil, func(b []byte) error {
		item := PT(new(T))
		if err := item.Unmarshal(b); err != nil {
			return err
		}
		keep(item)
		return nil
	})
	if err == nil && cont != "" {
		err = errPaged
	}
	return err
}
