import Shared

/// The `sim` suite (not yet measured: see its issue).
let simSuite = BenchSuite(name: "sim") { _ in
    throw BenchNotImplemented(suite: "sim")
}
