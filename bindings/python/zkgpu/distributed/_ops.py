"""What a worker runs for each named call, and the driver's check of each batch's shape."""

import ray

import zkgpu


def ed25519(batch, backend, mode):
    public_keys, signatures, messages = batch
    return zkgpu.ed25519_verify_batch(public_keys, signatures, messages, mode=mode,
                                      backend=backend)


def mldsa(batch, backend, set, external_mu):  # noqa: A002 - zkgpu.mldsa_verify's own name
    public_keys, messages, signatures, *contexts = batch
    return zkgpu.mldsa_verify(public_keys, messages, signatures, contexts[0] if contexts else None,
                              set=set, external_mu=external_mu, backend=backend)


def whir(polynomial, backend, params):
    evals, points, values = polynomial
    return zkgpu.whir_prove(params, evals, points, values, backend=backend)


def checked_tuples(batches, call, names, optional=0):
    """Yields each batch unchanged after checking it is a tuple of its parts (names).

    The parts' contents are the library's to check (in the worker, with its own messages); the
    shape is checked here so that a malformed batch fails before it is sent anywhere. The last
    `optional` names may be left out.
    """
    sizes = range(len(names) - optional, len(names) + 1)
    for index, batch in enumerate(batches):
        if not isinstance(batch, ray.ObjectRef) and (not isinstance(batch, (tuple, list))
                                                     or len(batch) not in sizes):
            raise TypeError(f"{call}: batch {index} must be a tuple ({', '.join(names)}), "
                            f"not {_describe(batch)}")
        yield batch


def _describe(value):
    if isinstance(value, (tuple, list)):
        return f"a {type(value).__name__} of {len(value)}"
    return f"a {type(value).__name__}"
