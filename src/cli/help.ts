import { CLIENT_DETAILS, COMMANDS, CONFIG_DETAILS, type CommandEntry } from "./commands";

/** `mailroom --help`: every command's usage lines. */
export function mainHelp(version: string): string {
  return `mailroom ${version}: catch, keep and handle webhooks; serve a translation-ordering API

Usage:
${COMMANDS.map((c) => c.usage).join("\n")}
  mailroom COMMAND --help                                  one command's usage and details
  mailroom --version                                       print the version

${CLIENT_DETAILS}

${CONFIG_DETAILS}
`;
}

/** `mailroom NAME --help`: its usage lines and details. */
export function commandHelp(entry: CommandEntry): string {
  const details = [entry.details, entry.client ? CLIENT_DETAILS : undefined].filter(Boolean).join("\n\n");
  return `Usage:\n${entry.usage}\n${details ? `\n${details}\n` : ""}`;
}

/** What a usage mistake prints: its one line and where the usage is. */
export function usageMistake(message: string, command?: string): string {
  return `mailroom: ${message}\nRun 'mailroom ${command ? `${command} ` : ""}--help' for usage.\n`;
}
