"""A Modbus TCP server for tests, built on pymodbus (a Modbus implementation nobody here wrote).

Usage: python3 modbus_peer.py '<spec json>'. Listens on 127.0.0.1, on a free port, and prints
`port <n>` once it accepts connections, then one line `request <fc> <address> <count> <ok|refused>`
per request it checks, so a test can see which reads a client made.

Spec: {"holding": [...], "input": [...], "coils": {"<address>": true}, "discrete": {...}} where a
register table is a list of entries:
  {"address": 100, "registers": [111]}                                    raw register values
  {"address": 10, "type": "float32", "order": "CDAB", "value": 230.1}     encoded by pymodbus
Addresses that no entry covers are not implemented: a read touching one answers exception 2
(illegal data address), as a real device with a register hole does. Addresses are 0-based.

While it runs, a line on standard input changes a register table: `{"table": "holding", "address":
10, "type": "float32", "value": 21.5}` (an entry as above, plus its table; it may fill a hole); the
peer answers `set <table> <address>` once the new registers are served.
"""

import asyncio
import importlib.util
import json
import sys
import threading
import types

# pymodbus's server module imports pyserial and serial_asyncio for its serial server even when
# only TCP is used; Debian's python3-pymodbus only recommends them. A TCP server needs neither.
for missing in ("serial", "serial_asyncio"):
    if importlib.util.find_spec(missing) is None:
        stub = types.ModuleType(missing)
        stub.create_serial_connection = None
        sys.modules[missing] = stub

from pymodbus.constants import Endian
from pymodbus.datastore import ModbusServerContext, ModbusSlaveContext, ModbusSparseDataBlock
from pymodbus.payload import BinaryPayloadBuilder
from pymodbus.server.async_io import ModbusTcpServer

# A, the most significant byte, first: ABCD; CDAB swaps the words, BADC the bytes of each word.
ORDERS = {
    "ABCD": (Endian.Big, Endian.Big),
    "CDAB": (Endian.Big, Endian.Little),
    "BADC": (Endian.Little, Endian.Big),
    "DCBA": (Endian.Little, Endian.Little),
}
ADDERS = {
    "int16": "add_16bit_int",
    "uint16": "add_16bit_uint",
    "int32": "add_32bit_int",
    "uint32": "add_32bit_uint",
    "int64": "add_64bit_int",
    "uint64": "add_64bit_uint",
    "float32": "add_32bit_float",
    "float64": "add_64bit_float",
}


def registers_of(entry):
    if "registers" in entry:
        return entry["registers"]
    byteorder, wordorder = ORDERS[entry.get("order", "ABCD")]
    builder = BinaryPayloadBuilder(byteorder=byteorder, wordorder=wordorder)
    value = entry["value"]
    kind = entry["type"]
    getattr(builder, ADDERS[kind])(value if kind.startswith("float") else int(value))
    return builder.to_registers()


def register_block(entries):
    values = {}
    for entry in entries:
        for offset, register in enumerate(registers_of(entry)):
            values[entry["address"] + offset] = register
    # An empty sparse block would take every address; one far-off cell keeps the table sparse.
    return ModbusSparseDataBlock(values or {65535: 0})


def bit_block(bits):
    return ModbusSparseDataBlock({int(a): bool(v) for a, v in bits.items()} or {65535: False})


class LoggingContext(ModbusSlaveContext):
    def validate(self, fc_as_hex, address, count=1):
        ok = super().validate(fc_as_hex, address, count)
        print(f"request {fc_as_hex} {address} {count} {'ok' if ok else 'refused'}", flush=True)
        return ok


def read_commands(loop, tables):
    """Applies each line of standard input on the event loop (the server's thread)."""

    def apply(line):
        entry = json.loads(line)
        table = entry.pop("table")
        tables[table].setValues(entry["address"], registers_of(entry))
        print(f"set {table} {entry['address']}", flush=True)

    for line in sys.stdin:
        if line.strip():
            loop.call_soon_threadsafe(apply, line)


async def main():
    spec = json.loads(sys.argv[1])
    tables = {"holding": register_block(spec.get("holding", [])), "input": register_block(spec.get("input", []))}
    slave = LoggingContext(
        hr=tables["holding"],
        ir=tables["input"],
        co=bit_block(spec.get("coils", {})),
        di=bit_block(spec.get("discrete", {})),
        zero_mode=True,
    )
    server = ModbusTcpServer(ModbusServerContext(slaves=slave, single=True), address=("127.0.0.1", 0))
    task = asyncio.create_task(server.serve_forever())
    await server.serving
    threading.Thread(target=read_commands, args=(asyncio.get_running_loop(), tables), daemon=True).start()
    print(f"port {server.server.sockets[0].getsockname()[1]}", flush=True)
    await task


asyncio.run(main())
