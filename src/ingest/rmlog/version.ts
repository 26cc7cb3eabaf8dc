// Which Hadoop versions could have written a log, from the shapes of its lines (docs/log-formats.md),
// for logs without a STARTUP_MSG banner. Each clue narrows the set of candidate release lines.

const RELEASES = ['2.2', '2.6', '2.7', '2.8', '2.10', '3.1', '3.3', '3.4'] as const;
type Release = (typeof RELEASES)[number];

/** A set of releases as a bit mask: bit i is RELEASES[i]. Clues run per line, so no allocation. */
function mask(releases: readonly Release[]): number {
  return releases.reduce((m, r) => m | (1 << RELEASES.indexOf(r)), 0);
}

const ALL = mask(RELEASES);
const UP_TO_2_7 = mask(['2.2', '2.6', '2.7']);
const ONLY_2_8 = mask(['2.8']);
const FROM_2_10 = mask(['2.10', '3.1', '3.3', '3.4']);
const SCHEDULER_NODE = mask(['2.6', '2.7', '2.8']);
const FICA_SCHEDULER_NODE = mask(['2.2', '3.1', '3.3', '3.4']);
const ONLY_2_2 = mask(['2.2']);
const SUMMARY_WITH_TAGS = mask(['2.10', '3.3', '3.4']);
const ONLY_3_1 = mask(['3.1']);
const ONLY_2_7 = mask(['2.7']);
const SUMMARY_PLAIN = mask(['2.2', '2.6']);

/** How an RMAppImpl state change names its event: ` on event = X` (2.10+), ` on event=X` (2.8), or not at all. */
export type StateChangeEvent = 'spaced' | 'unspaced' | 'none';

export class VersionClues {
  private candidates = ALL;
  private conflicting = false;

  observe(logger: string, message: string): void {
    switch (logger) {
      case 'RMAppImpl':
        if (message.includes(' State change from ')) {
          this.appStateChange(message.includes(' on event = ') ? 'spaced' : message.includes(' on event=') ? 'unspaced' : 'none');
        }
        break;
      case 'LeafQueue':
        if (message.startsWith('assignedContainer ')) this.leafQueueAssignment();
        break;
      case 'AbstractContainerAllocator':
        if (message.startsWith('assignedContainer ')) {
          this.narrow(message.includes('RegularContainerAllocator@') ? ONLY_2_8 : FROM_2_10);
        }
        break;
      case 'RMAppManager$ApplicationSummary':
        if (message.includes(',applicationTags=')) this.narrow(SUMMARY_WITH_TAGS);
        else if (message.includes(',submitTime=')) this.narrow(ONLY_3_1);
        else if (message.includes(',preemptedMemorySeconds=')) this.narrow(ONLY_2_8);
        else if (message.includes(',memorySeconds=')) this.narrow(ONLY_2_7);
        else this.narrow(SUMMARY_PLAIN);
        break;
      default:
        this.logger(logger);
    }
  }

  /** What an entry of `logger` says whatever its message: the classes some releases renamed. */
  logger(logger: string): void {
    switch (logger) {
      case 'SchedulerNode':
        this.narrow(SCHEDULER_NODE);
        break;
      case 'FiCaSchedulerNode':
        this.narrow(FICA_SCHEDULER_NODE);
        break;
      case 'FSSchedulerNode':
      case 'FSSchedulerApp':
        this.narrow(ONLY_2_2);
        break;
    }
  }

  /** RMAppImpl printed a state change, naming its event as `event` says. */
  appStateChange(event: StateChangeEvent): void {
    this.narrow(event === 'spaced' ? FROM_2_10 : event === 'unspaced' ? ONLY_2_8 : UP_TO_2_7);
  }

  /** The CS LeafQueue printed `assignedContainer ...` (2.8 moved the line to AbstractContainerAllocator). */
  leafQueueAssignment(): void {
    this.narrow(UP_TO_2_7);
  }

  /** `2.7`, `2.10 or 3.1 or ...`, or null when nothing was learnt or the clues conflict. */
  version(): string | null {
    if (this.conflicting || this.candidates === ALL) return null;
    return RELEASES.filter((_r, i) => (this.candidates & (1 << i)) !== 0).join(' or ');
  }

  private narrow(allowed: number): void {
    const next = this.candidates & allowed;
    if (next === 0) this.conflicting = true;
    else this.candidates = next;
  }
}
