"""Writes the corrupt Parquet files of `tests/parquet_untrusted.rs`, each a
file pyarrow writes with one defect put in by hand at a place this script
finds by reading the file's Thrift structures: the kinds of corruption that
made `utf8 check` panic, hang or allocate gigabytes before the footer's and
pages' walks (CHANGELOG, 0.1.0, Fixed). Deterministic: the same pyarrow
writes the same files.

    python3 -m venv venv && venv/bin/pip install pyarrow
    venv/bin/python make_hostile.py
"""

import io
import os
import struct

import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))


def varint(data, at):
    value, shift = 0, 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte & 0x80 == 0:
            return value, at


def encode_varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def zigzag(value):
    return (value << 1) ^ (value >> 63)


def walk(data, at, path, found):
    """Walks a compact-protocol struct from `at`, recording each integer
    field's (start, end) under its path of field ids; returns the end."""
    last = 0
    while True:
        header = data[at]
        at += 1
        if header == 0:
            return at
        kind, delta = header & 0x0F, header >> 4
        if delta == 0:
            raw, at = varint(data, at)
            field = (raw >> 1) ^ -(raw & 1)
        else:
            field = last + delta
        last = field
        at = value(data, at, kind, path + (field,), found)


def value(data, at, kind, path, found):
    if kind in (1, 2):
        return at
    if kind == 3:
        return at + 1
    if kind in (4, 5, 6):
        start = at
        _, at = varint(data, at)
        found.setdefault(path, []).append((start, at))
        return at
    if kind == 7:
        return at + 8
    if kind == 8:
        length, at = varint(data, at)
        return at + length
    if kind in (9, 10):
        header = data[at]
        at += 1
        size, element = header >> 4, header & 0x0F
        if size == 15:
            size, at = varint(data, at)
        for index in range(size):
            if element in (1, 2):
                at += 1
            else:
                at = value(data, at, element, path + (index,), found)
        return at
    if kind == 11:
        size, at = varint(data, at)
        if size:
            kinds = data[at]
            at += 1
            for index in range(size):
                at = value(data, at, kinds >> 4, path + (index, "key"), found)
                at = value(data, at, kinds & 0x0F, path + (index, "value"), found)
        return at
    if kind == 12:
        return walk(data, at, path, found)
    raise ValueError(kind)


def footer_fields(data):
    length = struct.unpack("<I", data[-8:-4])[0]
    start = len(data) - 8 - length
    found = {}
    walk(data, start, (), found)
    return found


def page_header_fields(data, at):
    found = {}
    end = walk(data, at, (), found)
    return found, end


def set_integer(data, span, new):
    """Replaces the varint at `span` with `new`'s, keeping the file's
    length: `new` must take as many bytes (checked)."""
    start, end = span
    encoded = encode_varint(zigzag(new))
    assert len(encoded) == end - start, (new, end - start, len(encoded))
    data[start:end] = encoded


def write(table, **options):
    sink = io.BytesIO()
    pq.write_table(table, sink, **options)
    return bytearray(sink.getvalue())


def strings(rows):
    values = pa.array([b"value %d caf\xc3\xa9" % row for row in range(rows)], pa.binary())
    return pa.Array.from_buffers(pa.string(), rows, values.buffers())


def save(name, data):
    with open(os.path.join(HERE, name), "wb") as file:
        file.write(bytes(data))


def main():
    flat = pa.table({"s": strings(200)})

    # A negative data page offset: the parquet crate asserted on it.
    data = write(flat, compression="none", use_dictionary=False)
    fields = footer_fields(data)
    offset_span = fields[(4, 0, 1, 0, 3, 9)][0]
    start, _ = varint(data, offset_span[0])
    set_integer(data, offset_span, -((start >> 1) or 4))
    save("negative-data-page-offset.parquet", data)

    # A schema element declaring 2^31 - 1 children: 16 GiB asked for.
    data = write(flat, compression="none")
    fields = footer_fields(data)
    root = fields[(2, 0, 5)][0]
    encoded = encode_varint(zigzag(2**31 - 1))
    data[root[0]:root[1]] = encoded
    # The footer's length grows with the varint.
    grown = len(encoded) - (root[1] - root[0])
    length = struct.unpack("<I", data[-8:-4])[0] + grown
    data[-8:-4] = struct.pack("<I", length)
    save("schema-children-past-the-footer.parquet", data)

    # A page that declares more uncompressed bytes than its data holds (as
    # large as the header's varint allows without moving the page), with
    # each codec that sizes its output from the header: Snappy's was padded
    # with zeros and accepted, and 2^31 - 1 took 2.1 GB.
    for codec in ["snappy", "zstd", "lz4"]:
        data = write(flat, compression=codec, use_dictionary=False)
        fields, _ = page_header_fields(data, 4)
        span = fields[(2,)][0]
        encoded = encode_varint(zigzag(2**31 - 1))
        if len(encoded) != span[1] - span[0]:
            # Keep the length: a varint padded with continuation bytes.
            width = span[1] - span[0]
            encoded = encode_varint(zigzag(2**(7 * width - 2) - 1))
        data[span[0]:span[1]] = encoded
        save(f"page-declares-more-than-it-holds-{codec}.parquet", data)

    # A dictionary page header's Thrift binary length of 2^31: the parquet
    # crate skipped it a failed read at a time.
    data = write(flat, compression="snappy", use_dictionary=True)
    found, end = page_header_fields(data, 4)
    data[end - 8:end - 1] = bytes.fromhex("f9f7ffffffff07")
    save("page-header-binary-past-the-file.parquet", data)

    # A gzip page whose CRC-32 trailer does not match its data.
    data = write(flat, compression="gzip", use_dictionary=False)
    fields, end = page_header_fields(data, 4)
    compressed_start, _ = fields[(3,)][0]
    size, _ = varint(data, compressed_start)
    page_end = end + ((size >> 1) ^ -(size & 1))
    data[page_end - 8] ^= 0xFF
    save("gzip-checksum-mismatch.parquet", data)

    # A page checksum (pyarrow's write_page_checksum) that does not match.
    data = write(flat, compression="none", use_dictionary=False, write_page_checksum=True)
    fields, end = page_header_fields(data, 4)
    data[end + 10] ^= 0x01
    save("page-checksum-mismatch.parquet", data)

    # A footer whose row group says it has more rows than its pages hold.
    data = write(flat, compression="none", use_dictionary=False)
    fields = footer_fields(data)
    span = fields[(4, 0, 3)][0]
    set_integer(data, span, 201)
    save("row-count-past-the-pages.parquet", data)

    # A column chunk whose values count disagrees with its pages'.
    data = write(flat, compression="none", use_dictionary=False)
    fields = footer_fields(data)
    span = fields[(4, 0, 1, 0, 3, 5)][0]
    set_integer(data, span, 199)
    save("chunk-values-not-its-pages.parquet", data)

    # An unknown footer field holding a list of nine booleans, whose nine
    # bytes read, where the parquet crate skips booleans without reading
    # them, as field 101: a list of 2^31 - 1 booleans to skip one at a time
    # (found by the fuzzer).
    data = write(flat, compression="none")
    length = struct.unpack("<I", data[-8:-4])[0]
    stop = len(data) - 9
    assert data[stop] == 0
    hidden = bytes([0x09]) + encode_varint(zigzag(101)) + bytes([0xF1]) + encode_varint(2**31 - 1)
    booleans = bytes([0x09]) + encode_varint(zigzag(100)) + bytes([len(hidden) << 4 | 1]) + hidden
    data[stop:stop] = booleans
    data[-8:-4] = struct.pack("<I", length + len(booleans))
    save("footer-list-of-booleans.parquet", data)

    # A DELTA_BYTE_ARRAY page whose run of prefix lengths declares more
    # values than its page holds (as many as its varint's bytes allow): the
    # parquet crate allocates the declared count before reading a value,
    # and 2^56 of them aborted the process (found by the fuzzer).
    data = write(flat, compression="none", use_dictionary=False,
                 column_encoding={"s": "DELTA_BYTE_ARRAY"})
    _, end = page_header_fields(data, 4)
    levels = struct.unpack("<I", data[end:end + 4])[0]
    at = end + 4 + levels
    _, at = varint(data, at)  # block size
    _, at = varint(data, at)  # mini-blocks per block
    count, count_end = varint(data, at)
    assert count == 200, count
    width = count_end - at
    data[at:count_end] = b"\xff" * (width - 1) + b"\x7f"
    save("delta-run-longer-than-its-page.parquet", data)

    delta_lengths_vlq_too_long(flat)


def delta_lengths_vlq_too_long(flat):
    """A DELTA_LENGTH_BYTE_ARRAY page whose run of lengths begins with 12
    bytes of FF, a varint longer than any integer: the parquet crate's
    reader panics on it ("Num of bytes exceed MAX_VLQ_BYTE_LEN"), in 59 and
    60 alike; the page's sizes are all as declared, so no walk refuses it."""
    data = write(flat, compression="none", use_dictionary=False,
                 column_encoding={"s": "DELTA_LENGTH_BYTE_ARRAY"})
    _, end = page_header_fields(data, 4)
    levels = struct.unpack("<I", data[end:end + 4])[0]
    at = end + 4 + levels
    data[at:at + 12] = b"\xff" * 12
    save("delta-lengths-varint-too-long.parquet", data)


if __name__ == "__main__":
    main()
