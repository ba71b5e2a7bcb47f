import { fuzzArea } from './harness.ts';

fuzzArea('users');
