/** Machine-wide CPU seconds spent at normal priority (user + system, not `nice`d work). */
import { readFileSync } from 'node:fs';

export function machineCpuSeconds(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] as string;
  const [, user, , system] = line.trim().split(/\s+/).map(Number);
  return ((user ?? 0) + (system ?? 0)) / 100;
}
