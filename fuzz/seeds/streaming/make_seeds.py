"""Writes the streaming fuzz target's seeds: inputs in its own format (the
alignment, the number of pieces, the BufReader's capacity less one, each
piece's length as two bytes little-endian, then the stream; see
fuzz_targets/streaming.rs), over real text of several scripts, cut inside
characters, at their edges, into empty pieces and at a bad byte, with
small and large capacities. Each is under the 4,096 bytes that `.ci/fuzz`
lets libFuzzer keep. Standard library only:

    python3 make_seeds.py
"""

import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "..", "..", "data", "corpus")
TEXTS = {
    "english": "wikipedia_mars/english.utf8.txt",
    "chinese": "wikipedia_mars/chinese.utf8.txt",
    "arabic": "wikipedia_mars/arabic.utf8.txt",
    "emoji": "lipsum/Emoji-Lipsum.utf8.txt",
    "hindi": "lipsum/Hindi-Lipsum.utf8.txt",
}


def text(path, size):
    with open(os.path.join(CORPUS, path), "rb") as file:
        return file.read(size)


def case(stream, pieces, alignment=0, capacity=7):
    assert len(pieces) < 16
    lengths = b"".join(struct.pack("<H", piece) for piece in pieces)
    return bytes([alignment, len(pieces), capacity]) + lengths + stream


def inside_characters(stream, count):
    """Piece lengths that end one byte into a multi-byte character."""
    cuts, last = [], 0
    for at, byte in enumerate(stream):
        if byte >= 0xC0 and at + 1 > last:
            cuts.append(at + 1 - last)
            last = at + 1
            if len(cuts) == count:
                break
    return cuts


def save(name, data):
    assert len(data) <= 4096, (name, len(data))
    with open(os.path.join(HERE, name), "wb") as file:
        file.write(data)


def main():
    for index, (name, path) in enumerate(TEXTS.items()):
        stream = text(path, 3000)
        stream = stream[: len(stream.decode("utf-8", "ignore").encode())]
        save(f"{name}-whole", case(stream, [], alignment=index, capacity=255))
        save(f"{name}-cut-inside", case(stream, inside_characters(stream, 12), alignment=index * 9))
        save(f"{name}-empty-pieces", case(stream, [0, 1, 0, 64, 0, 0, 200], capacity=0))
        bad = bytearray(stream)
        bad[len(bad) // 2] = 0xFF
        save(f"{name}-bad-byte", case(bytes(bad), [len(bad) // 2, 1, 1], capacity=15))
        cut = stream[: len(stream) - 1] if stream[-1] >= 0x80 else stream + b"\xe6\x97"
        save(f"{name}-cut-at-the-end", case(cut, [len(cut) - 2], capacity=1))


main()
