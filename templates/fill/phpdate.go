package fill

import (
	"strconv"
	"time"
)

// AppendPHPDate appends t formatted with a PHP date() format string, the
// notation ACF uses for the return and display formats of date and time
// pickers ("d/m/Y", "Ymd", "F j, Y g:i a"). Supported letters: d D j l N S
// w z W F m M n t L o Y y a A g G h H i s u v e T P O U; a backslash
// escapes the next character; other characters are copied.
func AppendPHPDate(dst []byte, t time.Time, format string) []byte {
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch c {
		case '\\':
			if i+1 < len(format) {
				i++
				dst = append(dst, format[i])
			}
		case 'd':
			dst = pad2(dst, t.Day())
		case 'D':
			dst = append(dst, t.Weekday().String()[:3]...)
		case 'j':
			dst = strconv.AppendInt(dst, int64(t.Day()), 10)
		case 'l':
			dst = append(dst, t.Weekday().String()...)
		case 'N':
			wd := int(t.Weekday())
			if wd == 0 {
				wd = 7
			}
			dst = strconv.AppendInt(dst, int64(wd), 10)
		case 'S':
			dst = append(dst, ordinalSuffix(t.Day())...)
		case 'w':
			dst = strconv.AppendInt(dst, int64(t.Weekday()), 10)
		case 'z':
			dst = strconv.AppendInt(dst, int64(t.YearDay()-1), 10)
		case 'W':
			_, w := t.ISOWeek()
			dst = pad2(dst, w)
		case 'F':
			dst = append(dst, t.Month().String()...)
		case 'm':
			dst = pad2(dst, int(t.Month()))
		case 'M':
			dst = append(dst, t.Month().String()[:3]...)
		case 'n':
			dst = strconv.AppendInt(dst, int64(t.Month()), 10)
		case 't':
			dst = strconv.AppendInt(dst, int64(time.Date(t.Year(), t.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()), 10)
		case 'L':
			y := t.Year()
			if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
				dst = append(dst, '1')
			} else {
				dst = append(dst, '0')
			}
		case 'o':
			y, _ := t.ISOWeek()
			dst = strconv.AppendInt(dst, int64(y), 10)
		case 'Y':
			dst = strconv.AppendInt(dst, int64(t.Year()), 10)
		case 'y':
			dst = pad2(dst, t.Year()%100)
		case 'a':
			dst = append(dst, t.Format("pm")...)
		case 'A':
			dst = append(dst, t.Format("PM")...)
		case 'g':
			dst = strconv.AppendInt(dst, int64(hour12(t)), 10)
		case 'G':
			dst = strconv.AppendInt(dst, int64(t.Hour()), 10)
		case 'h':
			dst = pad2(dst, hour12(t))
		case 'H':
			dst = pad2(dst, t.Hour())
		case 'i':
			dst = pad2(dst, t.Minute())
		case 's':
			dst = pad2(dst, t.Second())
		case 'u':
			dst = appendPadded(dst, t.Nanosecond()/1000, 6)
		case 'v':
			dst = appendPadded(dst, t.Nanosecond()/1000000, 3)
		case 'e', 'T':
			dst = append(dst, t.Location().String()...)
		case 'P':
			dst = t.AppendFormat(dst, "-07:00")
		case 'O':
			dst = t.AppendFormat(dst, "-0700")
		case 'U':
			dst = strconv.AppendInt(dst, t.Unix(), 10)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func pad2(dst []byte, n int) []byte {
	if n < 10 {
		dst = append(dst, '0')
	}
	return strconv.AppendInt(dst, int64(n), 10)
}

func hour12(t time.Time) int {
	h := t.Hour() % 12
	if h == 0 {
		h = 12
	}
	return h
}

func ordinalSuffix(d int) string {
	if d >= 11 && d <= 13 {
		return "th"
	}
	switch d % 10 {
	case 1:
		return "st"
	case 2:
		return "nd"
	case 3:
		return "rd"
	}
	return "th"
}

func appendPadded(dst []byte, n, width int) []byte {
	s := strconv.Itoa(n)
	for i := len(s); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}
