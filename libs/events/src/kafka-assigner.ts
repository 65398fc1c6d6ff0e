import { AssignerProtocol, PartitionAssigner } from 'kafkajs';

export type Assignment = Record<string, number[]>;

/**
 * Spreads each topic's partitions over the members that subscribed to that topic, the
 * least loaded member first. kafkajs' own round robin gives every member a share of the
 * leader's topics, so a member could be handed a topic it never subscribed to (and kafkajs
 * then drops it: those partitions would go unread) — this matters as soon as two
 * subscriptions of one group differ, e.g. during a rolling deploy that adds a topic.
 */
export function assignPartitions(
  members: Array<{ memberId: string; topics: string[] }>,
  partitionsByTopic: Record<string, number[]>,
): Record<string, Assignment> {
  const result: Record<string, Assignment> = {};
  const load = new Map<string, number>();
  const sorted = [...members].sort((a, b) => a.memberId.localeCompare(b.memberId));
  for (const m of sorted) {
    result[m.memberId] = {};
    load.set(m.memberId, 0);
  }
  for (const topic of Object.keys(partitionsByTopic).sort()) {
    const candidates = sorted.filter((m) => m.topics.includes(topic)).map((m) => m.memberId);
    if (candidates.length === 0) continue;
    for (const partition of [...partitionsByTopic[topic]].sort((a, b) => a - b)) {
      const memberId = candidates.reduce((best, id) => (load.get(id)! < load.get(best)! ? id : best));
      (result[memberId][topic] ??= []).push(partition);
      load.set(memberId, load.get(memberId)! + 1);
    }
  }
  return result;
}

export const TopicAwareAssigner: PartitionAssigner = ({ cluster }) => ({
  name: 'TopicAwareRoundRobin',
  version: 0,

  async assign({ members }) {
    const subscribed = members.map(({ memberId, memberMetadata }) => ({
      memberId,
      topics: AssignerProtocol.MemberMetadata.decode(memberMetadata)?.topics ?? [],
    }));
    const topics = [...new Set(subscribed.flatMap((m) => m.topics))];
    // The leader's client only tracks its own topics; other members may read more.
    await cluster.addMultipleTargetTopics(topics);
    const partitionsByTopic = Object.fromEntries(topics.map((topic) => [topic, cluster.findTopicPartitionMetadata(topic).map((p) => p.partitionId)]));
    const assignment = assignPartitions(subscribed, partitionsByTopic);
    return Object.entries(assignment).map(([memberId, topicPartitions]) => ({
      memberId,
      memberAssignment: AssignerProtocol.MemberAssignment.encode({ version: 0, assignment: topicPartitions, userData: Buffer.alloc(0) }),
    }));
  },

  protocol({ topics }) {
    return { name: 'TopicAwareRoundRobin', metadata: AssignerProtocol.MemberMetadata.encode({ version: 0, topics, userData: Buffer.alloc(0) }) };
  },
});
