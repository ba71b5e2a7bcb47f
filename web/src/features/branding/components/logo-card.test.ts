import { describe, expect, it } from 'vitest';
import { logoProblem } from './logo-card.tsx';

describe('logoProblem (002 §5.3, checked again by content on the server)', () => {
  it('takes jpg, png and jpeg names up to 1 MB', () => {
    for (const name of ['a.jpg', 'b.PNG', 'c.jpeg', 'd.JPG'])
      expect(logoProblem({ name, size: 1024 * 1024 })).toBeNull();
  });
  it('refuses other names first, then sizes over 1 MB', () => {
    expect(logoProblem({ name: 'a.gif', size: 10 })).toBe('type');
    expect(logoProblem({ name: 'a.svg', size: 10 })).toBe('type');
    expect(logoProblem({ name: 'png', size: 10 })).toBe('type');
    expect(logoProblem({ name: 'a.png', size: 1024 * 1024 + 1 })).toBe('size');
  });
});
