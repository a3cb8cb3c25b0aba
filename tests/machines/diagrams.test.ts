/**
 * docs/machines/ matches the machines: every page is rendered again in memory from the machine
 * definitions (scripts/docs-machines.ts) and compared with the file on disk, so a changed
 * machine without `npm run docs:machines` fails here. Also checks that no page is left for a
 * machine that no longer exists, and that each diagram is well-formed Mermaid as far as the
 * generator's own rules go (declared ids, balanced blocks, labels Mermaid can lex).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { existingMachineDocs, renderMachineDocs, renderMermaid } from '../../scripts/docs-machines';
import { docSlug, MACHINES, REPO_ROOT } from '../../scripts/machines-registry';

const STALE = 'docs/machines is stale: run `npm run docs:machines` and commit the result';
const rendered = renderMachineDocs();

describe('generated machine docs (npm run docs:machines)', () => {
  it.each([...rendered.keys()])('%s is up to date', (path) => {
    const full = join(REPO_ROOT, path);
    expect(existsSync(full), `${path} is missing: ${STALE}`).toBe(true);
    // Compared whole: the diff vitest prints shows what changed in the machine.
    expect(readFileSync(full, 'utf8'), STALE).toBe(rendered.get(path));
  });

  it('has no page for a machine that is not registered', () => {
    expect(existingMachineDocs().filter((path) => !rendered.has(path)), STALE).toEqual([]);
  });
});

describe('Mermaid output', () => {
  it.each(MACHINES.map((m) => [m.name, m] as const))('%s: every edge joins declared states and every label can be lexed', (_, entry) => {
    const lines = renderMermaid(entry.machine).split('\n');
    expect(lines[0]).toBe('stateDiagram-v2');
    const declared = new Set(['[*]']);
    let depth = 0;
    for (const raw of lines.slice(1)) {
      const line = raw.trim();
      const block = /^state (\w+) \{$/.exec(line);
      const labelled = /^state "([^"]+)" as (\w+)$/.exec(line);
      if (block) {
        declared.add(block[1]);
        depth += 1;
      } else if (line === '}') {
        depth -= 1;
        expect(depth, 'unbalanced }').toBeGreaterThanOrEqual(0);
      } else if (labelled) {
        declared.add(labelled[2]);
      } else if (/^\w+$/.test(line)) {
        declared.add(line);
      }
    }
    expect(depth, 'unclosed block').toBe(0);
    for (const raw of lines) {
      const edge = /^\s*(\S+) --> (\S+)(?: : (.*))?$/.exec(raw);
      if (!edge) continue;
      expect(declared.has(edge[1]), `${entry.name}: ${raw.trim()} starts at an undeclared state`).toBe(true);
      expect(declared.has(edge[2]), `${entry.name}: ${raw.trim()} ends at an undeclared state`).toBe(true);
      // Mermaid's description token stops at ':' and ';'; '#' and '%%' start comments.
      if (edge[3] !== undefined) expect(edge[3], raw).toMatch(/^[^:;#%\n]+$/);
    }
    // Ids Mermaid's lexer would read as keywords or split.
    for (const id of declared) if (id !== '[*]') expect(id).toMatch(/^(?!default|state |note |class )[A-Za-z][A-Za-z0-9_]*$/);
  });

  it('draws timers, invocations, root transitions and parallel regions as documented', () => {
    for (const entry of MACHINES) {
      const page = rendered.get(`docs/machines/${docSlug(entry)}.md`)!;
      expect(page, entry.name).toContain(`machine id \`${entry.machine.id}\``);
    }
    const socket = renderMermaid(MACHINES.find((m) => m.name === 'socket')!.machine);
    expect(socket).toContain('waitingToReconnect --> reconnecting : after reconnectDelay');
    expect(socket).toContain('any_state --> idle : socket.tokenChanged [isTokenCleared]');
    expect(socket).toContain('handshaking --> streaming : after userdataDelay');
    const session = renderMermaid(MACHINES.find((m) => m.name === 'session')!.machine);
    expect(session).toContain('loadingUser --> loggedIn : done fetchMe');
    expect(session).toContain('loadingUser --> loggedOut : error fetchMe');
    expect(session).toMatch(/state loggedIn \{[\s\S]*state profile \{[\s\S]*\n\s+--\n\s+state settings \{/);
  });
});
