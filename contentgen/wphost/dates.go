package wphost

import (
	"fmt"
	"strconv"
	"time"
	_ "time/tzdata" // sites name zones the machine may not have
)

// mysqlTime is the layout of WordPress's DATETIME columns.
const mysqlTime = "2006-01-02 15:04:05"

// siteLocation returns the time zone of a site from its options, as
// WordPress's wp_timezone does: timezone_string when set, else the fixed
// offset gmt_offset (hours, possibly fractional), else UTC.
func siteLocation(timezoneString, gmtOffset string) (*time.Location, error) {
	if timezoneString != "" {
		loc, err := time.LoadLocation(timezoneString)
		if err != nil {
			return nil, fmt.Errorf("the site's timezone_string %q: %w", timezoneString, err)
		}
		return loc, nil
	}
	if gmtOffset == "" {
		return time.UTC, nil
	}
	h, err := strconv.ParseFloat(gmtOffset, 64)
	if err != nil {
		return nil, fmt.Errorf("the site's gmt_offset %q is not a number", gmtOffset)
	}
	secs := int(h * 3600)
	if secs == 0 {
		return time.UTC, nil
	}
	return time.FixedZone(offsetName(secs), secs), nil
}

// offsetName names a fixed offset as WordPress does, such as "+05:30".
func offsetName(secs int) string {
	sign := "+"
	if secs < 0 {
		sign, secs = "-", -secs
	}
	return fmt.Sprintf("%s%02d:%02d", sign, secs/3600, secs%3600/60)
}

// localAndGMT returns the site-local and the GMT column values of t,
// whole seconds.
func localAndGMT(t time.Time, loc *time.Location) (local, gmt string) {
	t = t.Truncate(time.Second)
	return t.In(loc).Format(mysqlTime), t.UTC().Format(mysqlTime)
}

// fromColumns returns the instant of a local and a GMT column: the GMT one
// when it is set (WordPress leaves it zero for drafts with no date of
// their own), else the local one read in loc.
func fromColumns(local, gmt time.Time, loc *time.Location) time.Time {
	if !gmt.IsZero() && gmt.Year() > 1 {
		return time.Date(gmt.Year(), gmt.Month(), gmt.Day(), gmt.Hour(), gmt.Minute(), gmt.Second(), 0, time.UTC)
	}
	if local.IsZero() {
		return time.Time{}
	}
	return time.Date(local.Year(), local.Month(), local.Day(), local.Hour(), local.Minute(), local.Second(), 0, loc).UTC()
}
