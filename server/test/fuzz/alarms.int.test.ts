import { fuzzArea } from './harness.ts';

fuzzArea('alarms');
