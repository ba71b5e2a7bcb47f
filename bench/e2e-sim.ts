// bench:e2e's Modbus TCP peers, in their own process (forked by e2e.ts): modbus-serial's ServerTCP,
// as server/test/conformance/peers.ts makes them, on loopback. `ports` servers take the load
// devices (each device is one connection); one probe server answers the probe device, whose
// registers the parent flips across the threshold. Every holding register reads 20–29 (under
// the threshold of 30), moving each second. Messages to the parent: {ports, probePort} once
// listening; {type: 'answered', register, value, at} when the first read after a flip carries the
// new value (epoch ms with sub-ms precision, as the parent's clock).
import { ServerTCP } from 'modbus-serial';

const count = Number(process.argv[2] ?? 4);
const clock = () => performance.timeOrigin + performance.now();

type Vector = ConstructorParameters<typeof ServerTCP>[0];
const listen = (vector: Vector) =>
  new Promise<number>((resolve, reject) => {
    // Port 0 is not reported back by ServerTCP: a free port is found by trying from a random base.
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    const server = new ServerTCP(vector, { host: '127.0.0.1', port, unitID: 1 });
    server.on('initialized', () => resolve(port));
    server.on('serverError', reject);
    server.on('socketError', () => undefined);
    server.on('error', () => undefined);
  });
const listenRetrying = async (vector: Vector) => {
  for (let i = 0; ; i++) {
    try {
      return await listen(vector);
    } catch (err) {
      if (i > 20) throw err;
    }
  }
};

const load: Vector = {
  getHoldingRegister: (addr: number) => 20 + ((addr + Math.floor(Date.now() / 1000)) % 10),
  getMultipleHoldingRegisters: (addr: number, length: number) => {
    const second = Math.floor(Date.now() / 1000);
    const out = new Array<number>(length);
    for (let i = 0; i < length; i++) out[i] = 20 + ((addr + i + second) % 10);
    return out;
  },
  getInputRegister: () => 0,
  getCoil: () => false,
  setRegister: () => undefined,
  setCoil: () => undefined,
};

const probe = new Array<number>(100).fill(20);
/** Flipped registers whose new value no read has carried yet. */
const flipped = new Set<number>();
const readProbe = (addr: number, length: number) => {
  const at = clock();
  for (const register of flipped) {
    if (register < addr || register >= addr + length) continue;
    flipped.delete(register);
    process.send?.({ type: 'answered', register, value: probe[register], at });
  }
  return probe.slice(addr, addr + length);
};
const probeVector: Vector = {
  getHoldingRegister: (addr: number) => readProbe(addr, 1)[0] ?? 0,
  getMultipleHoldingRegisters: readProbe,
  getInputRegister: () => 0,
  getCoil: () => false,
  setRegister: () => undefined,
  setCoil: () => undefined,
};

const ports: number[] = [];
for (let i = 0; i < count; i++) ports.push(await listenRetrying(load));
const probePort = await listenRetrying(probeVector);
process.on('message', (m: { type: string; register: number; value: number }) => {
  if (m.type !== 'flip') return;
  probe[m.register] = m.value;
  flipped.add(m.register);
  process.send?.({ type: 'flipped', register: m.register, value: m.value, at: clock() });
});
process.send?.({ ports, probePort });
