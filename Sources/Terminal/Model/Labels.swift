import Geodesy

/// The dashboard's own words in each language. Chinese falls back to English in ASCII mode.
struct Labels: Sendable {
    let chinese: Bool

    init(language: Language, ascii: Bool) {
        chinese = language == .zh && !ascii
    }

    private func pick(_ en: String, _ zh: String) -> String { chinese ? zh : en }

    /// Cardinal letters N E S W at 0, 90, 180, 270.
    var cardinals: [String] { chinese ? ["北", "东", "南", "西"] : ["N", "E", "S", "W"] }
    /// Intercardinals NE SE SW NW at 45, 135, 225, 315.
    var intercardinals: [String] { chinese ? ["东北", "东南", "西南", "西北"] : ["NE", "SE", "SW", "NW"] }

    var trueWord: String { pick("true", "真") }
    var magneticWord: String { pick("magnetic", "磁") }
    var waiting: String { pick("waiting for the sensor", "等待传感器") }
    var accuracy: String { pick("accuracy", "精度") }
    var unknown: String { pick("unknown", "未知") }
    var fieldOK: String { pick("field ok", "磁场正常") }
    var disturbed: String { pick("disturbed", "干扰") }
    var declination: String { pick("declination", "磁偏角") }
    var field: String { pick("field", "磁场") }
    var roll: String { pick("roll", "横滚") }
    var pitch: String { pick("pitch", "俯仰") }
    var rateOfTurn: String { pick("turn", "转向") }
    var sensor: String { pick("sensor", "传感器") }
    var bus: String { pick("bus", "总线") }
    var errors: String { pick("errors", "错误") }
    var noSensor: String { pick("no sensor", "无传感器") }
    var gnss: String { pick("GNSS", "卫星定位") }
    var noGNSS: String { pick("no GNSS source", "无卫星定位") }
    var noPosition: String { pick("no position", "无位置") }
    var speed: String { pick("speed", "速度") }
    var course: String { pick("course", "航迹") }
    var error: String { pick("error", "误差") }
    var age: String { pick("age", "时效") }
    var stale: String { pick("STALE", "过时") }
    var reports: String { pick("reports", "报告") }
    var noReports: String { pick("no reports yet", "暂无报告") }
    var keysTitle: String { pick("keys", "按键") }

    /// The key list for the status line.
    var statusKeys: String {
        pick("q quit  t true/mag  u units  l language  c calibrate  r reset  ? help",
             "q 退出  t 真/磁  u 单位  l 语言  c 校准  r 重置  ? 帮助")
    }

    /// Shorter key list for narrow terminals.
    var statusKeysShort: String {
        pick("q quit t T/M u units l lang c cal r reset ? help", "q退出 t真/磁 u单位 l语言 c校准 r重置 ?帮助")
    }

    /// The least a status line says.
    var statusKeysTiny: String { pick("q quit  ? help", "q 退出  ? 帮助") }

    /// The help overlay: key and what it does.
    var helpRows: [(String, String)] {
        [
            ("q", pick("quit (also Ctrl-C)", "退出（或 Ctrl-C）")),
            ("t", pick("true / magnetic heading", "真航向 / 磁航向")),
            ("u", pick("speed units: km/h, kn, m/s", "速度单位：km/h、kn、m/s")),
            ("l", pick("language: English / 中文", "语言：English / 中文")),
            ("c", pick("start calibration", "开始校准")),
            ("r", pick("reset the track", "重置轨迹")),
            ("?", pick("show / hide this help", "显示 / 隐藏帮助")),
        ]
    }
}
