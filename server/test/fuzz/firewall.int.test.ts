import { fuzzArea } from './harness.ts';

fuzzArea('firewall');
