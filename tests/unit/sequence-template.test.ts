import { describe, expect, it } from 'vitest';
import { leadValues, renderTemplate, templateProblems } from '@/lib/sequences/template';

describe('sequence templates', () => {
  const ada = leadValues({ name: 'Ada King Lovelace', email: 'ada@example.com', company: 'Analytical', position: null });

  it('fills lead values, falls back where a value is missing, never leaves braces', () => {
    expect(ada).toMatchObject({ first_name: 'Ada', last_name: 'King Lovelace' });
    expect(renderTemplate('Hi {{first_name|there}} of {{ company }}', ada)).toBe('Hi Ada of Analytical');
    expect(renderTemplate('As {{position|a leader}}, {{position}}.', ada)).toBe('As a leader, .');
    expect(renderTemplate('Hi {{first_name|there}}', leadValues({ name: ' ', email: 'x@example.com', company: null, position: null }))).toBe(
      'Hi there',
    );
    expect(renderTemplate('From {{site_name}}', { ...ada, site_name: 'Shop' })).toBe('From Shop');
  });

  it('names unknown variables and unclosed braces', () => {
    expect(templateProblems('Hi {{first_name|there}}, {{name}}')).toEqual([]);
    expect(templateProblems('Hi {{firstname}}')).toEqual([expect.stringContaining('Unknown variable {{firstname}}')]);
    expect(templateProblems('Hi {{first_name')).toEqual([expect.stringContaining('Unclosed')]);
    expect(templateProblems('Hi {{ {{name}} }}')).not.toEqual([]);
  });
});
