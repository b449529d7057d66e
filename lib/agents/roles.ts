import type { AgentRole } from '@/lib/commands/schema';
import type { SiteSettings } from '@/lib/settings/schema';

/**
 * The role agents. Each is the same loop (model + the site's tools) with its own instructions;
 * the system prompt adds what the site's settings say about the business and its brand, so every
 * agent speaks for this site and no other.
 */
export interface RoleDefinition {
  role: AgentRole;
  /** How the agent is introduced in its system prompt. */
  title: string;
  instructions: string;
  /** Whether the agent may call the site's tools (the copywriter edits text only). */
  usesTools: boolean;
}

export const ROLES: Record<AgentRole, RoleDefinition> = {
  cmo: {
    role: 'cmo',
    title: 'the Chief Marketing Officer',
    instructions:
      "You plan and direct the site's marketing: positioning, campaigns, channels, segments, goals. Turn requests into concrete next steps. Use the tools to read and update the site's leads, segments, requirements (goals) and business settings when the request calls for it, and say what you changed.",
    usesTools: true,
  },
  sales: {
    role: 'sales',
    title: 'a sales representative',
    instructions:
      'You qualify and advance leads: find out what the prospect needs, match it to the products and services, propose a next step. Record what you learn with the lead tools (create or update leads, set their status) when the conversation gives you the facts; never invent contact details.',
    usesTools: true,
  },
  customerSupport: {
    role: 'customerSupport',
    title: 'a customer support agent',
    instructions:
      'You help customers and visitors with questions about the products, services, hours and locations. Answer from the business facts below; when you do not know, say so and offer to pass the question on. Be brief and kind.',
    usesTools: true,
  },
  email: {
    role: 'email',
    title: 'an email assistant',
    instructions:
      "You draft replies to inbound emails on behalf of the business. Answer with the body of the reply only (no subject line, no placeholders such as [Name] unless the information is truly missing), ready to send. Match the sender's language. You may look leads up with the tools; do not change records unless the email asks for it.",
    usesTools: true,
  },
  copywriter: {
    role: 'copywriter',
    title: 'a copywriter and content editor',
    instructions:
      "You edit content following the instruction you are given, in the brand's voice. Answer with the edited content only, in the requested format, with no preamble or commentary. Keep facts, names, links and numbers unless the instruction says otherwise.",
    usesTools: false,
  },
};

const MAX_SECTION = 4_000;

function section(title: string, value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value) && value.length === 0) return undefined;
  if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `${title}: ${text.length > MAX_SECTION ? `${text.slice(0, MAX_SECTION)}…` : text}`;
}

/** The business facts of the settings an agent needs, one line each; absent fields are left out. */
function businessContext(s: SiteSettings): string[] {
  const voice = s.branding?.voice_and_tone;
  const lines = [
    section('About the company', s.about),
    section('Industry', s.industry),
    section('Company size', s.company_size),
    section('Products', s.products),
    section('Services', s.services),
    section('Goals', s.goals),
    section('Locations', s.locations),
    section('Business hours', s.business_hours),
    section('Marketing channels', s.marketing_channels),
    section('Competitors', s.competitors),
    section('Brand archetype', s.branding?.brand_archetype),
    section('Brand pyramid', s.branding?.brand_pyramid),
    section('Communication style', voice?.communication_style),
    section('Personality traits', voice?.personality_traits),
    section('Preferred phrases', voice?.preferred_phrases),
    section('Brand guidelines — do', s.branding?.brand_guidelines?.do_list),
    section("Brand guidelines — don't", s.branding?.brand_guidelines?.dont_list),
  ];
  return lines.filter((l): l is string => Boolean(l));
}

export interface PromptContext {
  siteName: string;
  settings: SiteSettings;
  /** The lead the conversation is about, as the lead tools show it. */
  lead?: Record<string, unknown>;
  visitorId?: string;
}

export function systemPrompt(role: RoleDefinition, c: PromptContext): string {
  const forbidden = c.settings.branding?.voice_and_tone?.forbidden_words ?? [];
  const facts = businessContext(c.settings);
  return [
    `You are ${role.title} of "${c.siteName}".`,
    role.instructions,
    facts.length
      ? `Business facts (from the site's settings):\n${facts.map((l) => `- ${l}`).join('\n')}`
      : 'The site has no business settings yet; do not invent facts about the business.',
    forbidden.length ? `Never use these words: ${forbidden.join(', ')}.` : undefined,
    c.lead ? `The conversation is about this lead: ${JSON.stringify(c.lead)}` : undefined,
    c.visitorId ? `The conversation is with the site visitor ${c.visitorId}.` : undefined,
    role.usesTools ? 'Tools act on this site only; you never need to pass a site id.' : undefined,
  ]
    .filter(Boolean)
    .join('\n\n');
}
