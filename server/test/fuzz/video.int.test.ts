import { fuzzArea } from './harness.ts';

fuzzArea('video');
