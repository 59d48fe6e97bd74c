import Foundation

/// An exact JSON number.
///
/// A `JSONNumber` stores the number as an exact decimal: a sign, a significand made of
/// decimal digits (no leading or trailing zeros) and a base-10 exponent, so that
/// `value = (negative ? -1 : 1) * digits * 10^exponent`. This keeps arbitrarily large
/// integers and decimal fractions exact, which is what JSON Schema needs:
///
/// - `1.0`, `1` and `1e0` are the same number and all of them are integers
///   (draft 2020-12 treats any number with a zero fractional part as an integer);
/// - comparisons (`minimum`, `maximum`, …) are exact, even beyond `Double` range;
/// - `multipleOf` is computed exactly when the divisor has at most 18 significant
///   digits (so `0.0075` is a multiple of `0.0001`, and `1e308` vs `0.123456789`
///   neither crashes nor overflows), falling back to `Double` arithmetic otherwise.
///
/// Formatting of the original literal is not kept: numbers are printed in a canonical
/// form (see ``description``).
public struct JSONNumber: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// `true` for numbers below zero. Zero is never negative.
    public let isNegative: Bool
    /// Significand digits (each 0…9), most significant first, without leading or trailing zeros.
    /// Empty for zero.
    public let digits: [UInt8]
    /// Base-10 exponent applied to the integer formed by ``digits``.
    public let exponent: Int

    /// Creates a number from its parts, normalising them. Each digit must be in 0…9.
    public init(isNegative: Bool, digits: [UInt8], exponent: Int) {
        precondition(digits.allSatisfy { $0 < 10 }, "JSONNumber digits must be 0...9")
        var start = 0
        while start < digits.count && digits[start] == 0 { start += 1 }
        var end = digits.count
        var exp = exponent
        while end > start && digits[end - 1] == 0 { end -= 1; exp += 1 }
        if start == end {
            self.isNegative = false
            self.digits = []
            self.exponent = 0
        } else {
            self.isNegative = isNegative
            self.digits = (start == 0 && end == digits.count) ? digits : Array(digits[start..<end])
            self.exponent = exp
        }
    }

    /// Creates a number from an integer.
    public init<I: BinaryInteger>(_ value: I) {
        let text = String(value.magnitude)
        self.init(isNegative: value < 0, digits: text.utf8.map { $0 - 48 }, exponent: 0)
    }

    /// Creates a number from a `Double`, using its shortest round-tripping decimal representation.
    /// Returns `nil` for NaN and infinities, which JSON cannot represent.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        if value == 0 { self.init(isNegative: false, digits: [], exponent: 0); return }
        self.init(literal: "\(value)")
    }

    /// Parses a number literal. Accepts JSON number syntax (and Swift's `Double.description`
    /// output such as `1e+20`). Returns `nil` when `literal` is not a number.
    public init?(literal: String) {
        var bytes = Array(literal.utf8)
        guard let parsed = bytes.withUnsafeMutableBufferPointer({ JSONNumber.parse($0, 0, $0.count, strict: false) }) else { return nil }
        self = parsed
    }

    /// Parses a number from `buf[start..<end]`. In strict mode JSON grammar is enforced.
    static func parse(_ buf: UnsafeMutableBufferPointer<UInt8>, _ start: Int, _ end: Int, strict: Bool) -> JSONNumber? {
        var i = start
        var neg = false
        if i < end && buf[i] == UInt8(ascii: "-") { neg = true; i += 1 }
        var digits: [UInt8] = []
        var exp = 0
        let intStart = i
        while i < end && buf[i] >= 48 && buf[i] <= 57 { digits.append(buf[i] - 48); i += 1 }
        let intCount = i - intStart
        if intCount == 0 { return nil }
        if strict && intCount > 1 && buf[intStart] == 48 { return nil }
        if i < end && buf[i] == UInt8(ascii: ".") {
            i += 1
            let fs = i
            while i < end && buf[i] >= 48 && buf[i] <= 57 { digits.append(buf[i] - 48); exp -= 1; i += 1 }
            if i == fs { return nil }
        }
        if i < end && (buf[i] == UInt8(ascii: "e") || buf[i] == UInt8(ascii: "E")) {
            i += 1
            var eneg = false
            if i < end && (buf[i] == UInt8(ascii: "+") || buf[i] == UInt8(ascii: "-")) { eneg = buf[i] == UInt8(ascii: "-"); i += 1 }
            let es = i
            var e = 0
            while i < end && buf[i] >= 48 && buf[i] <= 57 {
                if e < 1_000_000_000 { e = e * 10 + Int(buf[i] - 48) }
                i += 1
            }
            if i == es { return nil }
            exp += eneg ? -e : e
        }
        if i != end { return nil }
        return JSONNumber(isNegative: neg, digits: digits, exponent: exp)
    }

    /// `true` when the number has no fractional part (`1.0` is an integer).
    public var isInteger: Bool { digits.isEmpty || exponent >= 0 }

    /// `true` for zero.
    public var isZero: Bool { digits.isEmpty }

    /// The nearest `Double` (may be ±infinity for huge magnitudes).
    public var doubleValue: Double {
        if digits.isEmpty { return 0 }
        var s = isNegative ? "-" : ""
        for d in digits { s.unicodeScalars.append(Unicode.Scalar(d + 48)) }
        s += "e\(exponent)"
        return Double(s) ?? (isNegative ? -.infinity : .infinity)
    }

    /// The value as an `Int`, if it is an integer that fits.
    public var intValue: Int? {
        guard isInteger else { return nil }
        if digits.isEmpty { return 0 }
        if digits.count + exponent > 19 { return nil }
        var m: Int = 0
        for d in digits {
            let (a, o1) = m.multipliedReportingOverflow(by: 10)
            let (b, o2) = a.addingReportingOverflow(Int(d))
            if o1 || o2 { return nil }
            m = b
        }
        for _ in 0..<exponent {
            let (a, o) = m.multipliedReportingOverflow(by: 10)
            if o { return nil }
            m = a
        }
        return isNegative ? -m : m
    }

    /// The magnitude order: position of the most significant digit (digits.count + exponent).
    private var magnitudeOrder: Int { digits.count + exponent }

    private static func compareMagnitude(_ a: JSONNumber, _ b: JSONNumber) -> Int {
        if a.digits.isEmpty { return b.digits.isEmpty ? 0 : -1 }
        if b.digits.isEmpty { return 1 }
        let oa = a.magnitudeOrder, ob = b.magnitudeOrder
        if oa != ob { return oa < ob ? -1 : 1 }
        let n = max(a.digits.count, b.digits.count)
        for i in 0..<n {
            let da = i < a.digits.count ? a.digits[i] : 0
            let db = i < b.digits.count ? b.digits[i] : 0
            if da != db { return da < db ? -1 : 1 }
        }
        return 0
    }

    /// Exact three-way comparison: -1, 0 or 1.
    public static func compare(_ a: JSONNumber, _ b: JSONNumber) -> Int {
        let sa = a.digits.isEmpty ? 0 : (a.isNegative ? -1 : 1)
        let sb = b.digits.isEmpty ? 0 : (b.isNegative ? -1 : 1)
        if sa != sb { return sa < sb ? -1 : 1 }
        if sa == 0 { return 0 }
        let m = compareMagnitude(a, b)
        return sa > 0 ? m : -m
    }

    public static func < (lhs: JSONNumber, rhs: JSONNumber) -> Bool { compare(lhs, rhs) < 0 }

    /// Whether `self` is an integer multiple of `divisor` (`divisor` must be positive).
    /// Exact when the divisor has at most 18 significant digits; otherwise uses `Double`.
    public func isMultiple(of divisor: JSONNumber) -> Bool {
        if digits.isEmpty { return true }
        if divisor.digits.isEmpty { return false }
        // self = a * 10^ea, divisor = b * 10^eb. self/divisor integer  <=>
        // a * 10^(ea-eb) ≡ 0 (mod b)             if ea >= eb
        // a ≡ 0 (mod b * 10^(eb-ea))             if ea < eb
        let shift = exponent - divisor.exponent
        if divisor.digits.count <= 18 {
            var b: UInt64 = 0
            for d in divisor.digits { b = b * 10 + UInt64(d) }
            if shift >= 0 {
                let r = JSONNumber.mod(digits, b)
                if r == 0 { return true }
                // r * 10^shift mod b
                let p = JSONNumber.powMod(10, shift, b)
                return JSONNumber.mulMod(r, p, b) == 0
            } else {
                // need a divisible by 10^(-shift) and by b (as combined modulus b*10^k).
                let k = -shift
                // a must end in k zeros; digits have no trailing zeros, so impossible unless k == 0.
                if k > 0 { return false }
                return JSONNumber.mod(digits, b) == 0
            }
        }
        let q = doubleValue / divisor.doubleValue
        if !q.isFinite { return false }
        return q == q.rounded()
    }

    private static func mod(_ digits: [UInt8], _ m: UInt64) -> UInt64 {
        var r: UInt64 = 0
        for d in digits { r = mulMod(r, 10, m) + UInt64(d); if r >= m { r %= m } }
        return r % m
    }

    private static func mulMod(_ a: UInt64, _ b: UInt64, _ m: UInt64) -> UInt64 {
        let (hi, lo) = a.multipliedFullWidth(by: b)
        return m.dividingFullWidth((hi % m, lo)).remainder
    }

    private static func powMod(_ base: UInt64, _ e: Int, _ m: UInt64) -> UInt64 {
        if m == 1 { return 0 }
        var result: UInt64 = 1, b = base % m, e = e
        while e > 0 {
            if e & 1 == 1 { result = mulMod(result, b, m) }
            b = mulMod(b, b, m)
            e >>= 1
        }
        return result
    }

    /// Whether `token` is already what ``JSONNumber/description`` writes for it: an integer without a leading zero
    /// (and not "-0"), or a decimal with digits on both sides of its point, no trailing zero after it, and fewer
    /// than five zeros between the point and the first digit of a number below one. Anything else (exponents, more
    /// digits than an `Int64` has) is left to ``JSONNumber``.
    public static func isCanonicalLiteral(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !token.isEmpty else { return false }
        var at = 0
        let negative = token[0] == UInt8(ascii: "-")
        if negative { at = 1 }
        let integerStart = at
        while at < token.count, token[at] &- UInt8(ascii: "0") < 10 { at += 1 }
        let integerDigits = at - integerStart
        guard integerDigits > 0, integerDigits <= 18 else { return false }
        let leadingZero = token[integerStart] == UInt8(ascii: "0")
        if leadingZero && integerDigits > 1 { return false }
        if at == token.count { return !(negative && leadingZero) }
        guard token[at] == UInt8(ascii: "."), at + 1 < token.count else { return false }
        at += 1
        let fractionStart = at
        while at < token.count, token[at] &- UInt8(ascii: "0") < 10 { at += 1 }
        guard at == token.count, at - fractionStart <= 18, token[at - 1] != UInt8(ascii: "0") else { return false }
        if leadingZero {
            // 0.000001 and smaller are written with an exponent; a negative zero point something keeps its sign.
            var zeros = 0
            while token[fractionStart + zeros] == UInt8(ascii: "0") { zeros += 1 }
            return zeros < 5
        }
        return true
    }

    /// Canonical JSON text: plain integers up to 21 digits (`100`), plain decimals when the
    /// exponent is small (`0.0075`), otherwise scientific notation (`1.5e+300`).
    public var description: String {
        if digits.isEmpty { return "0" }
        var s = isNegative ? "-" : ""
        let ds = String(decoding: digits.map { $0 + 48 }, as: UTF8.self)
        let order = digits.count + exponent
        if exponent >= 0 && exponent <= 20 {
            s += ds + String(repeating: "0", count: exponent)
        } else if exponent < 0 && order > 0 {
            let idx = ds.index(ds.startIndex, offsetBy: order)
            s += ds[..<idx] + "." + ds[idx...]
        } else if exponent < 0 && order > -6 {
            s += "0." + String(repeating: "0", count: -order) + ds
        } else {
            let first = ds.prefix(1), rest = ds.dropFirst()
            s += first + (rest.isEmpty ? "" : "." + rest) + "e" + (order - 1 >= 0 ? "+" : "") + String(order - 1)
        }
        return s
    }
}
