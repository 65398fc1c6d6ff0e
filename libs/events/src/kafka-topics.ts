import type { Admin } from 'kafkajs';

export interface TopicSettings {
  partitions: number;
  replicationFactor: number;
}

/**
 * Creates topics explicitly before anything produces to or reads them (brokers should run
 * with auto.create.topics.enable=false, so partition counts are ours, not a default).
 * Remembers the topics known to exist; a failed creation is retried on next use.
 */
export class KafkaTopics {
  private readonly known = new Map<string, Promise<void>>();

  constructor(
    private readonly admin: () => Promise<Admin>,
    private readonly settings: TopicSettings,
  ) {}

  async ensure(topics: string[]): Promise<void> {
    const missing = [...new Set(topics)].filter((t) => !this.known.has(t));
    if (missing.length > 0) {
      const creation = this.create(missing);
      for (const topic of missing) {
        const own = creation.catch((err: unknown) => {
          this.known.delete(topic);
          throw err;
        });
        this.known.set(topic, own);
      }
    }
    await Promise.all(topics.map((t) => this.known.get(t) ?? Promise.resolve()));
  }

  private async create(topics: string[]): Promise<void> {
    const admin = await this.admin();
    // Resolves false (no error) for topics that already exist.
    await admin.createTopics({
      waitForLeaders: true,
      topics: topics.map((topic) => ({
        topic,
        numPartitions: this.settings.partitions,
        replicationFactor: this.settings.replicationFactor,
      })),
    });
  }
}
