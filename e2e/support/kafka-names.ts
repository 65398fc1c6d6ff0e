/** The cluster's name of a topic or consumer group of the e2e platform (its KAFKA_NAMESPACE prefix). */
export function onCluster(name: string): string {
  const env = JSON.parse(process.env.E2E_PLATFORM_ENV ?? '{}') as Record<string, string>;
  return env.KAFKA_NAMESPACE ? `${env.KAFKA_NAMESPACE}.${name}` : name;
}
