import { fuzzArea } from './harness.ts';

fuzzArea('series');
