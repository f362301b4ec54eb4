"""Ethereum logsBloom on real mainnet receipts, held to the stored bloom and to an independent library.

The two receipts are Ethereum mainnet transactions 0xc6fcb7d0… (block 3,969,717, two ENS logs) and 0x7f1c6a58…
(block 4,476,790, one log), copied from ethers.js's test data (ethers-io/ethers.js, src.ts/_tests/
blockchain-data.ts, ``testReceipt.mainnet``), which holds them as a mainnet node returned them; the JSON-RPC
field names (transactionHash, logIndex, hex quantities) are restored here. Their logsBloom values were written
by the Ethereum network, not by bloomviz: rebuilding them from the logs with bloomviz's Keccak-256 positions
must give the same 2048 bits, and every answer must equal eth-bloom's (an independent implementation).
"""

from __future__ import annotations

import json
import random

import pytest

from bloomviz import formats
from bloomviz.formats import ForeignFormatError, ethereum

eth_bloom = pytest.importorskip("eth_bloom", reason="eth-bloom (the test extra) is the independent reference")

RECEIPTS = [
    {"blockHash": "0x36b4af7f0538559e581c8588f16477df0f676439ea67fe8d7a2ae4abb20e2566", "blockNumber": "0x3c92b5",
     "transactionHash": "0xc6fcb7d00d536e659a4559d2de29afa9e364094438fef3e72ba80728ce1cb616",
     "transactionIndex": "0x39", "from": "0x18c6045651826824febbd39d8560584078d1b247",
     "to": "0x6090a6e47849629b7245dfa1ca21d94cd15878ef", "status": "0x1",
     "logs": [
         {"address": "0x314159265dD8dbb310642f98f50C066173C1259b", "logIndex": "0x1a",
          "topics": ["0xce0457fe73731f824cc272376169235128c118b49d344817417c6d108d155e82",
                     "0x93cdeb708b7545dc668eb9280176169d1c33cfd8ed6f04690a0bcc88a93fc4ae",
                     "0xf0106919d12469348e14ad6a051d0656227e1aba2fefed41737fdf78421b20e1"],
          "data": "0x00000000000000000000000018c6045651826824febbd39d8560584078d1b247"},
         {"address": "0x6090A6e47849629b7245Dfa1Ca21D94cd15878Ef", "logIndex": "0x1b",
          "topics": ["0x0f0c27adfd84b60b6f456b0e87cdccb1e5fb9603991588d87fa99f5b6b61e670",
                     "0xf0106919d12469348e14ad6a051d0656227e1aba2fefed41737fdf78421b20e1",
                     "0x00000000000000000000000018c6045651826824febbd39d8560584078d1b247"],
          "data": "0x000000000000000000000000000000000000000000000000002386f26fc1000000000000000000000000000000000000"
                  "000000000000000000000000595a32ce"}],
     "logsBloom": "0x00000000000000040000000000100000010000000000000040000000000000000000000000000000000000000000000000"
                  "0000000000100000000000000000000000000000000000000000000000000002000000100000000040000000000000000000"
                  "0000000000000000200000000000000000000000040000000002000000000000000000000000000000000000000400000000"
                  "0000000000000000000000000000000000000000801000000000000000000000020000000000040000000040000000000000"
                  "0000020000000040000000000000000000000000000000000000000000000100000000000000000000000000000000002000"
                  "00000000000000"},
    {"blockHash": "0x34e5a6cfbdbb84f7625df1de69d218ade4da72f4a2558064a156674e72e976c9", "blockNumber": "0x444f76",
     "transactionHash": "0x7f1c6a58dc880438236d0b0a4ae166e9e9a038dbea8ec074149bd8b176332cac",
     "transactionIndex": "0x1e", "from": "0x18c6045651826824febbd39d8560584078d1b247",
     "to": "0xb90e64082d00437e65a76d4c8187596bc213480a", "status": "0x1",
     "logs": [{"address": "0xb90E64082D00437e65A76d4c8187596BC213480a", "logIndex": "0x10", "data": "0x",
               "topics": ["0x748d071d1992ee1bfe7a39058114d0a50d5798fe8eb3a9bfb4687f024629a2ce",
                          "0x5574aa58f7191ccab6de6cf75fe2ea0484f010b852fdd8c6b7ae151d6c2f4b83"]}],
     "logsBloom": "0x00000000000000000000000000000000000000000000000000008000000000000000000000000000000000000000000000"
                  "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                  "0000000100000000000000020000000000000000800000000000000000000000000000000000000000000000000000000000"
                  "0000010000000000000000000800000000000000000000000000000000000000000000000000000000000000000000000000"
                  "0000200000000000000000000000000000000000000000000000000008000000000000000008000000000000000000000000"
                  "00000000000000"},
]


@pytest.fixture(params=[0, 1])
def receipt(request, tmp_path):
    path = tmp_path / "receipt.json"
    path.write_text(json.dumps({"jsonrpc": "2.0", "id": 1, "result": RECEIPTS[request.param]}))
    return path, RECEIPTS[request.param]


def test_the_reader_detects_a_receipt_and_rebuilds_its_bloom_bit_for_bit(receipt):
    path, record = receipt
    assert formats.detect(path) == "ethereum"
    [flt] = formats.open_filters(path)
    assert (flt.m, flt.k, flt.fields["kind"], flt.fields["block"]) == (2048, 3, "receipt", int(record["blockNumber"], 16))
    members = ethereum.members_of(path)
    rebuilt = eth_bloom.BloomFilter()
    ours = set()
    for member in members:
        rebuilt.add(member)
        ours.update(ethereum.positions(member))
    assert int(rebuilt) == int(record["logsBloom"], 16)                  # the library agrees with the network
    assert {i for i in range(2048) if flt.bits[i]} == ours                # and so do bloomviz's positions
    for member in members:
        assert flt.lookup("0x" + member.hex()).maybe_present              # zero false negatives


def test_non_member_answers_equal_eth_blooms(receipt):
    path, record = receipt
    [flt] = formats.open_filters(path)
    theirs = eth_bloom.BloomFilter(int(record["logsBloom"], 16))
    rng = random.Random(2048)
    probes = [bytes(rng.randrange(256) for _ in range(rng.choice((20, 32)))) for _ in range(3000)]
    answers = [(flt.lookup("0x" + p.hex()).maybe_present, p in theirs) for p in probes]
    assert all(a == b for a, b in answers)
    assert sum(a for a, _ in answers) < 30       # 10-ish bits set of 2048: a non-member passes ~ 1e-7 of the time


def test_a_bare_hex_bloom_a_receipt_list_and_a_block_header(tmp_path):
    bare = tmp_path / "bloom.txt"
    bare.write_text(RECEIPTS[1]["logsBloom"] + "\n")
    assert formats.detect(bare) == "ethereum"
    assert formats.open_filters(bare)[0].bits_set == formats.open_filters(bare)[0].bits.count(1) > 0
    block = tmp_path / "block.json"
    union = int(RECEIPTS[0]["logsBloom"], 16) | int(RECEIPTS[1]["logsBloom"], 16)
    block.write_text(json.dumps({"number": "0x10", "hash": "0x" + "ab" * 32, "logsBloom": f"0x{union:0512x}",
                                 "transactions": []}))
    [head] = formats.open_filters(block)
    assert head.fields["kind"] == "block header" and head.label == "block 16"
    listed = tmp_path / "receipts.json"
    listed.write_text(json.dumps({"jsonrpc": "2.0", "id": 1, "result": RECEIPTS}))
    both = formats.open_filters(listed)
    assert [f.fields["transaction"] for f in both] == [r["transactionHash"] for r in RECEIPTS]
    assert head.bits_set == (both[0].bits | both[1].bits).count(1)


@pytest.mark.parametrize("text,expect", [
    ('{"logsBloom": "0x1234"}', "4 hex digits"),
    ('{"logsBloom": "' + "0x" + "zz" * 256 + '"}', "not hex digits"),
    ('{"logsBloom": 5}', "not a 0x-prefixed"),
    ('{"result": [{"logsBloom": "0x' + "0" * 512 + '"}, {"x": 1}]}', "record 1 has no logsBloom"),
    ('{"logsBloom": "0x' + "0" * 512 + '"', "not JSON"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
])
def test_bad_files_are_refused_naming_the_fault(tmp_path, text, expect):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(ForeignFormatError, match=expect) as err:
        formats.open_filters(path, "ethereum")
    assert "ethereum" in str(err.value)


def test_an_item_written_0x_must_be_whole_bytes(receipt):
    path, _ = receipt
    [flt] = formats.open_filters(path)
    with pytest.raises(ValueError, match="whole bytes"):
        flt.lookup("0xabc")
    assert flt.lookup("Transfer").positions == ethereum.positions(b"Transfer")


def test_damaged_receipts_are_refused_or_read_consistently(tmp_path):
    raw = json.dumps({"jsonrpc": "2.0", "id": 1, "result": RECEIPTS}).encode()
    rng = random.Random(24)
    path = tmp_path / "fuzzed.json"
    for trial in range(300):
        data = bytearray(raw[:rng.randrange(len(raw))] if trial % 5 == 0 else raw)
        for _ in range(rng.choice((1, 2, 4))):
            i = rng.randrange(len(data))
            data[i] = rng.randrange(256) if rng.random() < 0.5 else data[i] ^ (1 << rng.randrange(8))
        path.write_bytes(bytes(data))
        try:
            filters = formats.open_filters(path, "ethereum")
        except ForeignFormatError as exc:
            assert "ethereum" in str(exc)
            continue
        for f in filters:
            assert len(f.bits) == f.m == 2048 and f.k == 3


def test_a_real_mainnet_block_of_2024():
    # bloomviz/data/README.md: block 0xb5f712d1… of 3 June 2024, from safe-global/safe-transaction-service's test data
    from importlib import resources
    with resources.as_file(resources.files("bloomviz.data") / "ethereum-block-2024-06-03.json") as path:
        assert formats.detect(path) == "ethereum"
        [flt] = formats.open_filters(path)
        record = json.loads(path.read_text())["result"]
    assert flt.fields["kind"] == "block header" and flt.fields["hash"] == record["hash"]
    assert (flt.m, flt.k, flt.bits_set) == (2048, 3, 906)
    theirs = eth_bloom.BloomFilter(int(record["logsBloom"], 16))
    rng = random.Random(906)
    probes = [bytes(rng.randrange(256) for _ in range(20)) for _ in range(4000)]
    answers = [flt.lookup("0x" + p.hex()).maybe_present for p in probes]
    assert answers == [p in theirs for p in probes]
    # at this fill a never-logged address passes about (906/2048)^3 = 8.7 % of the time
    assert 0.07 < sum(answers) / len(answers) < 0.105
