import type { CommandSpec } from './command.ts';

export const importCommand: CommandSpec = {
  path: ['import'],
  summary: 'Import a world file.',
  positional: { name: 'file', description: 'The world file.' },
  options: [],
  examples: ['import worlds/demo.json'],
  async run() {},
};
