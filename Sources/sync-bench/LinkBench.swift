import Shared

/// The `link` suite (not yet measured: see its issue).
let linkSuite = BenchSuite(name: "link") { _ in
    throw BenchNotImplemented(suite: "link")
}
