import { configure } from '@testing-library/react';

// findBy* and waitFor give up after 1 s by default. A form's validation in jsdom takes a few hundred
// ms alone, and over a second when the journeys run beside Vitest on two loaded cores (a CI run
// failed tariffs-page.test.tsx there). Waiting longer only slows a test that fails anyway.
configure({ asyncUtilTimeout: 10_000 });
