import { fuzzArea } from './harness.ts';

fuzzArea('auth');
