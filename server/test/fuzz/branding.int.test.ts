import { fuzzArea } from './harness.ts';

fuzzArea('branding');
