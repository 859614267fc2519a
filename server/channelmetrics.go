package server

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/binlite/binlite/gtid"
)

// channelMetrics are the replication channels' metrics, one series per channel
// (label channel), read from SHOW REPLICA STATUS's fields at each scrape.
type channelMetrics struct {
	node                                *Node // its replicas, read at each scrape (opened after the endpoint)
	lag, io, sql, errno, retrieved, ovl *prometheus.Desc
}

func newChannelMetrics(n *Node) *channelMetrics {
	d := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc("binlite_replica_channel_"+name, help, []string{"channel"}, nil)
	}
	return &channelMetrics{node: n,
		lag:       d("seconds_behind_source", "Seconds_Behind_Source of the channel (-1 when NULL)."),
		io:        d("io_running", "1 when the channel's receiver is connected, 0 otherwise."),
		sql:       d("sql_running", "1 when the channel's applier runs."),
		errno:     d("last_sql_errno", "Last_SQL_Errno of the channel."),
		retrieved: d("retrieved_transactions", "Transactions in the channel's Retrieved_Gtid_Set."),
		ovl:       d("overlaps", "Tables this channel changes rows of that another channel changes too."),
	}
}

func (c *channelMetrics) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.lag, c.io, c.sql, c.errno, c.retrieved, c.ovl} {
		ch <- d
	}
}

func (c *channelMetrics) Collect(ch chan<- prometheus.Metric) {
	replicas := c.node.replicas
	if replicas == nil {
		return
	}
	overlaps := map[string]int{}
	for _, o := range replicas.Overlaps() {
		overlaps[o.Channel]++
	}
	for _, row := range replicas.Status("", true) {
		f := map[string]any{}
		for _, field := range row {
			f[field.Name] = field.Value
		}
		name, _ := f["Channel_Name"].(string)
		gauge := func(d *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, name)
		}
		lag := -1.0
		if v, ok := f["Seconds_Behind_Source"].(int64); ok {
			lag = float64(v)
		}
		gauge(c.lag, lag)
		gauge(c.io, yes(f["Replica_IO_Running"]))
		gauge(c.sql, yes(f["Replica_SQL_Running"]))
		errno, _ := f["Last_SQL_Errno"].(int64)
		gauge(c.errno, float64(errno))
		n := 0.0
		if s, ok := f["Retrieved_Gtid_Set"].(string); ok {
			if set, err := gtid.Parse(s); err == nil {
				n = float64(set.Count())
			}
		}
		gauge(c.retrieved, n)
		gauge(c.ovl, float64(overlaps[name]))
	}
}

func yes(v any) float64 {
	if s, _ := v.(string); s == "Yes" {
		return 1
	}
	return 0
}
