public enum LarderInfo { public static let version = "0.2.0" }
