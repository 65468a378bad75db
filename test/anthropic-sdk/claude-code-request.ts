/**
 * A request shaped as Claude Code 2.1 sends it in print mode (observed against a local server): three system
 * blocks with `cache_control`, 24 tools whose `input_schema` declares `$schema` 2020-12, `metadata.user_id`,
 * `max_tokens: 32000`, fields the gateway does not act on (`thinking`, `context_management`,
 * `output_config`), streamed; about 75 KB. The tools' names are Claude Code's; their texts are stand-ins of
 * a similar length.
 */
const TOOL_NAMES = [
  'Task', 'Bash', 'Glob', 'Grep', 'ExitPlanMode', 'Read', 'Edit', 'Write', 'NotebookEdit', 'WebFetch', 'TodoWrite', 'WebSearch',
  'BashOutput', 'KillShell', 'SlashCommand', 'Skill', 'AskUserQuestion', 'ListMcpResourcesTool', 'ReadMcpResourceTool', 'MultiEdit',
  'EnterPlanMode', 'LSP', 'TaskOutput', 'TaskStop',
];

const prose = (topic: string, sentences: number) =>
  Array.from({ length: sentences }, (_, i) => `Step ${i + 1}: when you use ${topic}, check the inputs, prefer the dedicated tool over a shell command, and report what changed.`).join(' ');

function tool(name: string, i: number) {
  return {
    name,
    description: prose(name, 14),
    input_schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      required: ['command'],
      properties: {
        command: { type: 'string', description: prose('the command', 2) },
        timeout: { type: 'number', description: 'Optional timeout in milliseconds (max 600000).' },
        paths: { type: 'array', items: { type: 'string' }, description: 'Files the call concerns.' },
        mode: { type: 'string', enum: ['default', 'plan', 'acceptEdits'], description: 'How to run.' },
        options: {
          type: 'object',
          additionalProperties: false,
          properties: { verbose: { type: 'boolean' }, limit: { type: 'integer', minimum: 1 }, offset: { type: 'integer', minimum: 0 } },
        },
      },
    },
    ...(i === TOOL_NAMES.length - 1 && { cache_control: { type: 'ephemeral' } }),
  };
}

export function claudeCodeRequest() {
  return {
    model: 'claude-sonnet-4-5',
    max_tokens: 32000,
    stream: true,
    system: [
      { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: 'ephemeral' } },
      { type: 'text', text: prose('the terminal', 40), cache_control: { type: 'ephemeral' } },
      { type: 'text', text: `Working directory: /home/user/project\nToday's date: 2026-11-25\n${prose('git', 10)}`, cache_control: { type: 'ephemeral' } },
    ],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: '<system-reminder>This is a reminder that your todo list is currently empty.</system-reminder>' },
          { type: 'text', text: 'Say hello in one short sentence.', cache_control: { type: 'ephemeral' } },
        ],
      },
    ],
    tools: TOOL_NAMES.map(tool),
    metadata: { user_id: 'user_0123456789abcdef_account__session_4f6a2c1e-9d3b-4c55-8a7e-2b1f0e9c8d7a' },
    thinking: { type: 'adaptive' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    output_config: { effort: 'medium' },
  };
}

/** The headers Claude Code sends beside its key. */
export const CLAUDE_CODE_HEADERS = {
  accept: 'application/json',
  'anthropic-version': '2023-06-01',
  'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27,fine-grained-tool-streaming-2025-05-14',
  'anthropic-dangerous-direct-browser-access': 'true',
  'x-app': 'cli',
  'x-claude-code-session-id': '4f6a2c1e-9d3b-4c55-8a7e-2b1f0e9c8d7a',
  'user-agent': 'claude-cli/2.1.0 (external, cli)',
};
