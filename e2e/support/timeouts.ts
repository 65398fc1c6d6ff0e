// e2e tests wait on a real platform (Kafka consumer joins, key generation); jest's
// per-project `testTimeout` is not honoured, so the e2e project sets it here.
jest.setTimeout(60_000);
