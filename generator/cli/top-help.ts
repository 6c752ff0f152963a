/**
 * `mcp-stubgen --help` as yargs prints it at the default width, so the most common first command
 * answers without loading yargs. test/generator/cli/fast-path.test.ts compares it with yargs'
 * own output: a changed command or global option fails there until this text is updated.
 */
export const TOP_HELP_WIDTH = 110;

export const TOP_HELP = `mcp-stubgen <command> [options]

Generate typed, cancellation-aware TypeScript stubs from an MCP schema revision.

Commands:
  mcp-stubgen generate  Generate out/<revision>/ for the selected revisions
  mcp-stubgen catalog   Print the method catalog of a revision
  mcp-stubgen diff      What changes between two revisions, breaking changes marked
  mcp-stubgen schema    Manage the schema cache

Options:
      --version   Show version number                                                                [boolean]
      --config    Config file (default: mcp-stubgen.config.json, or the "mcp-stubgen" key of package.json)
                                                                                                      [string]
      --cache     Schema cache folder (default: .mcp-stubgen/schema beside the config file, else in the
                  working folder)                                                                     [string]
      --lockfile  Lockfile of the schema pins (default: mcp-stubgen.lock.json beside the config file, else in
                  the working folder)                                                                 [string]
  -h, --help      Show help                                                                          [boolean]`;
