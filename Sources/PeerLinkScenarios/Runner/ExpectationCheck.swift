import PeerLinkCore
import PeerLinkSim

/// Compares a queried value with an expectation's literal.
public enum ExpectationCheck {
    public static func compare(_ actual: PlistValue, _ op: ExpectOperator, _ expected: PlistValue) -> Bool {
        if let a = actual.doubleValue, let e = expected.doubleValue {
            switch op {
            case .equal: return a == e
            case .notEqual: return a != e
            case .less: return a < e
            case .lessOrEqual: return a <= e
            case .greater: return a > e
            case .greaterOrEqual: return a >= e
            }
        }
        switch op {
        case .equal: return actual == expected
        case .notEqual: return actual != expected
        default:
            guard let a = actual.stringValue, let e = expected.stringValue else { return false }
            switch op {
            case .less: return a < e
            case .lessOrEqual: return a <= e
            case .greater: return a > e
            default: return a >= e
            }
        }
    }
}
