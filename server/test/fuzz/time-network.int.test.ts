import { fuzzArea } from './harness.ts';

fuzzArea('time-network');
