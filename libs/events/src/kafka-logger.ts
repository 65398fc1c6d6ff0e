import { Logger } from '@nestjs/common';
import { logCreator, logLevel } from 'kafkajs';

/** Routes kafkajs' own warnings and errors to Nest's Logger (kafkajs is created with logLevel WARN). */
export const nestLogCreator: logCreator = () => {
  const loggers = new Map<string, Logger>();
  return ({ namespace, level, log }) => {
    const context = `kafkajs:${namespace || 'client'}`;
    let logger = loggers.get(context);
    if (!logger) {
      logger = new Logger(context);
      loggers.set(context, logger);
    }
    const { message, timestamp: _timestamp, logger: _name, ...extra } = log;
    const details = Object.keys(extra).length > 0 ? ` ${JSON.stringify(extra, omitStacks)}` : '';
    const text = `${message}${details}`;
    // kafkajs logs every error response of the protocol (topic already exists, group
    // rebalancing, coordinator loading) as an ERROR, though it handles them; real failures
    // surface again from the producer, admin or consumer.
    if (namespace === 'Connection' && String(message).startsWith('Response ')) logger.debug(text);
    else if (level === logLevel.ERROR) logger.error(text);
    else if (level === logLevel.WARN) logger.warn(text);
    else if (level === logLevel.INFO) logger.log(text);
    else logger.debug(text);
  };
};

function omitStacks(key: string, value: unknown): unknown {
  return key === 'stack' ? undefined : value;
}
