/**
 * The variables of a sequence's subject and body: `{{name}}`, or `{{name|fallback}}` whose fallback
 * is used when the lead (or site) has no value. Templates are checked when a sequence is saved, so a
 * message never goes out with braces in it: an unknown variable or an unclosed `{{` is refused.
 */
export const LEAD_VARIABLES = ['first_name', 'last_name', 'name', 'email', 'company', 'position'] as const;
/** From the site: its name and the settings' industry. */
export const SITE_VARIABLES = ['site_name', 'industry'] as const;
export const TEMPLATE_VARIABLES = [...LEAD_VARIABLES, ...SITE_VARIABLES] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];
export type TemplateValues = Partial<Record<TemplateVariable, string | null>>;

const PLACEHOLDER = /\{\{\s*([^{}|]*?)\s*(?:\|([^{}]*))?\}\}/g;
const known = new Set<string>(TEMPLATE_VARIABLES);

/** What is wrong with a template, one sentence per problem; empty when it can be sent. */
export function templateProblems(template: string): string[] {
  const problems: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (!known.has(match[1])) problems.push(`Unknown variable {{${match[1]}}}: use ${TEMPLATE_VARIABLES.join(', ')}`);
  }
  const rest = template.replace(PLACEHOLDER, '');
  if (rest.includes('{{') || rest.includes('}}')) problems.push('Unclosed or nested braces: write a variable as {{name}} or {{name|fallback}}');
  return problems;
}

/** The template with each variable replaced by its value, else its fallback, else nothing. */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (_all, name: string, fallback: string | undefined) => {
    const value = values[name as TemplateVariable]?.trim();
    return value ? value : (fallback ?? '').trim();
  });
}

/** A lead's values: the first word of its name is its first name, the rest its last name. */
export function leadValues(lead: { name: string; email: string; company: string | null; position: string | null }): TemplateValues {
  const [first = '', ...rest] = lead.name.trim().split(/\s+/);
  return { first_name: first, last_name: rest.join(' '), name: lead.name, email: lead.email, company: lead.company, position: lead.position };
}
