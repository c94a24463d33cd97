/**
 * Starter sequences. Copy is plain, editable HTML; `{{offer_link}}` marks where the offer link (with
 * the discount code) goes and `{{lead_magnet}}` the lead magnet's name: both are filled in when the
 * funnel is created, so the posts read as the creator will edit them. A mail that speaks of the
 * discount has `plain` copy for a funnel without one: a sequence never promises what is not there.
 */
export interface TemplateEmail {
  delayHours: number;
  subject: string;
  html: string;
  /** The copy used when the funnel has no discount code (what differs). */
  plain?: { subject?: string; html?: string };
}
export interface FunnelTemplate {
  id: 'welcome' | 'minicourse' | 'launch';
  name: string;
  description: string;
  emails: TemplateEmail[];
}

const offer = (text: string) => `<p><a href="{{offer_link}}">${text}</a></p>`;

export const FUNNEL_TEMPLATES: FunnelTemplate[] = [
  {
    id: 'welcome',
    name: 'Welcome sequence',
    description: 'Five emails over seven days: deliver the lead magnet, build trust, then present the offer.',
    emails: [
      {
        delayHours: 0,
        subject: 'Here is {{lead_magnet}}',
        html: '<p>Thanks for grabbing {{lead_magnet}}! It is yours to keep.</p><p>Over the next few days I will share how to get the most out of it.</p>',
      },
      {
        delayHours: 24,
        subject: 'The one thing most people skip',
        html: '<p>Yesterday you got {{lead_magnet}}. Today: the step most people skip, and why it matters more than the rest.</p>',
      },
      {
        delayHours: 72,
        subject: 'A quick story',
        html: '<p>When I started, I made every mistake in the book. Here is what finally worked, and how you can shortcut it.</p>',
      },
      {
        delayHours: 120,
        subject: 'Ready for the next step?',
        html: '<p>If {{lead_magnet}} helped, the full program takes you the rest of the way.</p>' + offer('See the full program with your discount'),
        plain: { html: '<p>If {{lead_magnet}} helped, the full program takes you the rest of the way.</p>' + offer('See the full program') },
      },
      {
        delayHours: 168,
        subject: 'Last call: your discount ends soon',
        html: '<p>Your welcome discount is about to go. If you have been on the fence, now is the time.</p>' + offer('Claim your discount'),
        plain: {
          subject: 'Still on the fence?',
          html: '<p>If you have been on the fence about the full program, here is everything it covers, in one place.</p>' + offer('See the full program'),
        },
      },
    ],
  },
  {
    id: 'minicourse',
    name: 'Mini-course',
    description: 'Four lessons, one a day; the last lesson presents the offer.',
    emails: [
      { delayHours: 0, subject: 'Lesson 1: start here', html: '<p>Welcome to the mini-course! Lesson 1 is about the foundation everything else rests on.</p>' },
      {
        delayHours: 24,
        subject: 'Lesson 2: the core technique',
        html: '<p>Today we put the foundation to work with the core technique. Try it once before tomorrow.</p>',
      },
      { delayHours: 48, subject: 'Lesson 3: common mistakes', html: '<p>Lesson 3 covers the mistakes that slow most people down, and how to avoid them.</p>' },
      {
        delayHours: 72,
        subject: 'Lesson 4: where to go from here',
        html: '<p>You finished the mini-course. The complete course goes deeper on every lesson.</p>' + offer('Get the complete course with your discount'),
        plain: { html: '<p>You finished the mini-course. The complete course goes deeper on every lesson.</p>' + offer('Get the complete course') },
      },
    ],
  },
  {
    id: 'launch',
    name: 'Launch',
    description: 'Three emails over 72 hours: announce, remind, last chance.',
    emails: [
      {
        delayHours: 0,
        subject: 'It is here',
        html: '<p>Thanks for getting {{lead_magnet}}. The doors are open, with a launch discount for you.</p>' + offer('See the offer'),
        plain: { html: '<p>Thanks for getting {{lead_magnet}}. The doors are open.</p>' + offer('See the offer') },
      },
      {
        delayHours: 48,
        subject: 'What people are saying',
        html: '<p>Here is what early buyers said in the first two days.</p>' + offer('Join them with your discount'),
        plain: { html: '<p>Here is what early buyers said in the first two days.</p>' + offer('Join them') },
      },
      {
        delayHours: 72,
        subject: 'Last chance',
        html: '<p>The launch discount ends today.</p>' + offer('Claim it before it goes'),
        plain: {
          subject: 'A last word on the launch',
          html: '<p>This is my last mail about the launch. If it is for you, here it is.</p>' + offer('See the offer'),
        },
      },
    ],
  },
];

export const findTemplate = (id: string) => FUNNEL_TEMPLATES.find((t) => t.id === id);

/** A template mail's copy for a funnel with or without a discount code. */
export const emailCopy = (email: TemplateEmail, withDiscount: boolean) =>
  withDiscount ? { subject: email.subject, html: email.html } : { subject: email.plain?.subject ?? email.subject, html: email.plain?.html ?? email.html };
