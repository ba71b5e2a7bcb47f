import { fuzzArea } from './harness.ts';

fuzzArea('custom-menus');
