/**
 * The sentences answers are made of. Slots: `{topic}` the subject phrase, `{key}` and `{key2}` single words
 * from the question; a capitalised slot name (`{Topic}`, `{Key}`) capitalises the first letter.
 * Everything here is ASCII, so only words echoed from the caller can hold multi-byte characters.
 */
import type { Intent } from './subject.ts';

export interface PhraseBank {
  openers: readonly string[];
  body: readonly string[];
  closers: readonly string[];
  /** Numbered steps or bullets instead of prose. */
  listStyle?: 'numbered' | 'bulleted' | 'lines';
  /** Answer length in tokens, before any `max_tokens`. */
  length: readonly [number, number];
}

const GENERAL_BODY = [
  'At its core, {topic} comes down to a handful of ideas that fit together.',
  'The first thing to know is that {key} plays a central role here.',
  'Most explanations start with the basics and then move on to the details that matter for your situation.',
  'A useful way to think about it is to compare {key} with something you already know well.',
  'Many people find that {topic} makes more sense after seeing a concrete example.',
  'It also helps to keep the context in mind, since the details can change from one case to another.',
  'In practice, what matters most is how {key} affects the result you care about.',
  'If you look at {key2} as well, the bigger picture becomes much clearer.',
  'A common misconception is that {key} is complicated, but the main idea is fairly simple.',
  'There is plenty of depth if you want it, but these points cover the essentials.',
  'One good habit is to check a reliable source whenever the details about {key} really matter.',
  'The connection between {key} and {key2} is often where the interesting questions are.',
] as const;

const GENERAL_CLOSERS = [
  'Let me know if you would like more detail on any part of this!',
  'I hope this helps. Would you like me to go deeper into {key}?',
  'Want me to expand on any of these points?',
  'Feel free to ask a follow-up question about {key} anytime.',
  'If you tell me a bit more about what you need, I can tailor the answer.',
] as const;

export const PHRASES: Record<Intent, PhraseBank> = {
  greeting: {
    openers: [
      'Hello! How can I help you today?',
      'Hi there! What can I do for you?',
      "Hey! I'm doing well, thanks for asking. What would you like to talk about?",
      "Hello! I'm happy to help with questions, writing, planning, or anything else you have in mind.",
    ],
    body: ['Feel free to ask me anything.', 'I can explain ideas, draft text, or help you think a problem through.'],
    closers: ['What is on your mind?', 'Just let me know where you would like to start.'],
    length: [15, 32],
  },
  thanks: {
    openers: [
      "You're welcome! I'm glad I could help.",
      'Happy to help!',
      'Anytime! It was a pleasure.',
    ],
    body: ['If anything else comes up, just ask.', 'Good luck with the next steps.'],
    closers: ['Have a great day!', 'Let me know if there is anything else I can do.'],
    length: [15, 28],
  },
  about: {
    openers: [
      'Good question! Here is a short overview of {topic}.',
      "Sure! Let's take a look at {topic}.",
      'Happy to explain. {Topic} is a subject with a few layers worth unpacking.',
      "Here's what you should know about {topic}.",
    ],
    body: GENERAL_BODY,
    closers: GENERAL_CLOSERS,
    length: [30, 115],
  },
  why: {
    openers: [
      'That is a great question. You asked why {topic}, and the answer usually comes down to a few factors.',
      'Good question! There are a couple of reasons behind this.',
      'The short answer is that several things work together here.',
    ],
    body: [
      'The main reason has to do with how {key} behaves under normal conditions.',
      'Another factor is the way {key} interacts with {key2}.',
      'Over time, these effects add up, which is why the pattern is so consistent.',
      'It is a bit like a chain reaction: one small cause leads to a visible result.',
      'Scientists and experts have studied {key} for a long time, and this explanation is widely accepted.',
      'Of course, there are exceptions, and the details depend on the specific situation.',
    ],
    closers: GENERAL_CLOSERS,
    length: [30, 110],
  },
  howto: {
    openers: [
      "Here's how you can {topic}:",
      'Sure! To {topic}, follow these steps:',
      'Good question. Here is a simple way to {topic}:',
    ],
    body: [
      'Start by checking what you already have and what you still need.',
      'Gather everything related to {key} before you begin.',
      'Work through it one step at a time and check the result as you go.',
      'If something does not look right, go back a step and adjust it.',
      'Look up the official documentation or guide for {key} if you get stuck.',
      'Test the result with a small example first, then apply it more widely.',
      'Once it works, write down what you did so it is easier next time.',
    ],
    closers: [
      'That should get you there. Let me know if you hit a snag!',
      'If any step is unclear, tell me where you got stuck and I will help.',
      'Good luck, and feel free to ask if you need more detail on any step.',
    ],
    listStyle: 'numbered',
    length: [45, 120],
  },
  write: {
    openers: ["Here's {topic}:", 'Sure! Here is {topic}:', 'Of course. Here is my take on {topic}:'],
    body: [
      'Soft light settles over the {key},',
      'a quiet rhythm, slow and deep,',
      'the world leans in to listen',
      'to all the {key2} it means to keep.',
      'Each line carries a little of the {key},',
      'and every pause lets the feeling grow,',
      'until the last word lands gently',
      'like footsteps in the evening glow.',
    ],
    closers: [
      'I hope you enjoy it! I can change the tone or the length if you like.',
      'Would you like a different style or a longer version?',
    ],
    listStyle: 'lines',
    length: [40, 110],
  },
  list: {
    openers: ['Sure! Here is a short list for {topic}:', 'Here are a few ideas for {topic}:', 'Happy to help. Here are some options:'],
    body: [
      '{Key}: a good place to start.',
      'Something practical related to {key}.',
      'An example that shows {key2} in action.',
      'A common mistake to avoid with {key}.',
      'A trusted resource for learning more about {key}.',
      'A quick win you can try today.',
      'A longer-term idea worth planning for.',
    ],
    closers: ['Would you like more detail on any of these?', 'I can expand any item into a full explanation if that helps.'],
    listStyle: 'bulleted',
    length: [35, 110],
  },
  request: {
    openers: ['Sure, I can {topic}.', 'Of course! Happy to {topic}.', "Absolutely. Let's {topic} together."],
    body: GENERAL_BODY,
    closers: GENERAL_CLOSERS,
    length: [30, 110],
  },
  yesno: {
    openers: [
      'Generally, yes, though it depends on the details.',
      'In most cases, yes, but there are some exceptions worth knowing.',
      'It depends, but usually the answer is no, at least not without some preparation.',
      'Short answer: it can, as long as a few conditions are met.',
    ],
    body: GENERAL_BODY,
    closers: GENERAL_CLOSERS,
    length: [25, 100],
  },
  statement: {
    openers: [
      'Thanks for sharing that! It sounds like {key} is on your mind.',
      'That is interesting. Tell me more about {key}.',
      'I see what you mean about {key}.',
      'Got it. Let me share a few thoughts on {key}.',
    ],
    body: GENERAL_BODY,
    closers: GENERAL_CLOSERS,
    length: [25, 100],
  },
  empty: {
    openers: ["I'm here to help! What would you like to talk about?", 'Hello! What can I do for you today?'],
    body: ['You can ask a question, share some text, or describe a task.'],
    closers: ['I am ready when you are.'],
    length: [15, 30],
  },
};

/** Said when the user's message holds images. */
export const IMAGE_SENTENCES = [
  'Thanks for the image! I can see it has quite a bit of detail.',
  'Looking at the picture you shared, a few things stand out.',
  'I took a look at the image you sent.',
] as const;

/** Ties a tool result back to the user's question. */
export const TOOL_RESULT_OPENERS = ['Here is what I found.', 'I checked that for you.', 'Done! Here are the results.'] as const;
export const TOOL_RESULT_CLOSERS = [
  'Let me know if you need anything else!',
  'Is there anything else you would like me to check?',
  'I hope that answers your question about {key}.',
] as const;

/** Continuations for a prompt that stops mid-sentence. */
export const CONTINUATIONS = [
  'and that turned out to matter more than anyone expected.',
  'which is exactly where the story of {key} begins.',
  'and the rest followed naturally from there.',
  'so it is worth taking a closer look at {key}.',
] as const;
