public enum LarderInfo { public static let version = "0.1.0" }
