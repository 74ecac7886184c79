import Shared

/// The `merge` suite (not yet measured: see its issue).
let mergeSuite = BenchSuite(name: "merge") { _ in
    throw BenchNotImplemented(suite: "merge")
}
