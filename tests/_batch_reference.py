"""The pure-Python reference of the batch engine: plain loops over the
single-value functions, with the signatures of the C engine's two entry
points (``_pctcodec._many_list`` and ``_pctcodec._many_arrow``), so that the
tests can run every batch call on both and compare (see
``_batch_cases.engines``). Arrow goes through pyarrow here (imported on the first Arrow call: the list
tests run where pyarrow has no wheel)."""
from pctcodec import batch

NAMES = {code: name for name, code in batch._OPS.items()}
ON_ERROR = {code: name for name, code in batch._ON_ERROR.items()}
ON_ERROR[batch._ON_ERROR_ROWS] = "rows"  # "null", the failed rows' indexes alone


def map_values(name, func, on_error, rejects, values, base=0, utf8=False):
    """func over str values, None kept (utf8: a result must have a UTF-8 form,
    for Arrow). Under on_error "null"/"keep" a failing row gives None / its
    value and Reject(index, value, exception) goes to rejects (on_error
    "rows": "null", the index alone)."""
    out = []
    for index, value in enumerate(values, base):
        try:
            if isinstance(value, str):
                result = func(value)
                if utf8 and isinstance(result, str):
                    result.encode("utf-8")
                out.append(result)
            elif value is None:
                out.append(None)
            else:
                raise TypeError("%s() value at index %d must be str or None, not %.200s"
                                % (name, index, type(value).__name__))
        except Exception as exc:
            if on_error != "raise" and not isinstance(exc, MemoryError):
                if rejects is not None:
                    rejects.append(index if on_error == "rows" else batch.Reject(index, value, exc))
                out.append(value if on_error == "keep" else None)
                continue
            new = batch._indexed(exc, index)
            if new is exc:
                raise
            raise new from exc
    return out


def many_list(values, code, func, safe, encoding, errors, opts, on_error, rejects):
    return map_values(NAMES[code], func, ON_ERROR[on_error], rejects, values)


class _Capsules:
    """Hands capsules to pyarrow through the PyCapsule interface."""

    def __init__(self, capsules):
        self.capsules = capsules

    def __arrow_c_array__(self, requested_schema=None):
        return self.capsules

    def __arrow_c_stream__(self, requested_schema=None):
        return self.capsules


def many_arrow(source, code, func, safe, encoding, errors, opts, on_error, rejects, threads, base):
    import pyarrow as pa

    if isinstance(source, tuple):
        arr = pa.array(_Capsules(source[:2]))  # (schema, array[, buffer sizes])
    else:
        chunks = pa.chunked_array(_Capsules(source))
        arr = pa.concat_arrays(chunks.chunks) if chunks.num_chunks else pa.array([], chunks.type)
    name = NAMES[code]
    if batch._arrow_type_name(pa, arr.type) is None:
        raise TypeError("%s() needs a column of strings, not Arrow type %s" % (name, arr.type))
    check = name == "check_many"
    out = map_values(name, func, ON_ERROR[on_error], rejects, arr.to_pylist(), base,
                     utf8=not check)
    return pa.array(out, type=pa.int64() if check else arr.type).__arrow_c_array__()
