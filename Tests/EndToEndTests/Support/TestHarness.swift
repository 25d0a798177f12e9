// The end-to-end harness (BrokerProcess, ChildProcess, ProcessRun) lives in TestSupport so the
// LeakProbeTests target runs the same real brokers; re-exported so every file here sees it.
@_exported import TestSupport
