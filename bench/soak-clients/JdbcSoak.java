// pgjdbc: PreparedStatement batch inserts (addBatch/executeBatch, BATCH rows a commit) and reads of the
// batch back through a PreparedStatement, checked against what was written; SECONDS long.
// Prints one JSON line: statements (rows written + reads), errors, the first error.
// Usage: java -cp .:postgresql.jar JdbcSoak HOST PORT USER DB SECONDS FIRST_ID
import java.math.BigDecimal;
import java.sql.*;

public class JdbcSoak {
  public static void main(String[] a) throws Exception {
    String url = "jdbc:postgresql://" + a[0] + ":" + a[1] + "/" + a[3];
    long end = System.currentTimeMillis() + (long) (Double.parseDouble(a[4]) * 1000);
    long i = Long.parseLong(a[5]);
    final int batch = 100;
    long statements = 0, errors = 0, mismatches = 0;
    String first = null;
    try (Connection c = DriverManager.getConnection(url, a[2], "")) {
      c.setAutoCommit(false);
      PreparedStatement ins = c.prepareStatement("INSERT INTO soak (id, name, amount, day, note, n) VALUES (?, ?, ?, ?, ?, ?)");
      PreparedStatement sel = c.prepareStatement("SELECT id, name, amount, day, note, n FROM soak WHERE id > ? AND id <= ? ORDER BY id");
      while (System.currentTimeMillis() < end) {
        try {
          for (long k = i + 1; k <= i + batch; k++) {
            ins.setLong(1, k);
            ins.setString(2, "jdbc 'row' " + k);
            ins.setBigDecimal(3, new BigDecimal((k % 100000) + "." + String.format("%02d", k % 100)));
            ins.setDate(4, Date.valueOf(java.time.LocalDate.of(2020, 1, 1).plusDays(k % 3000)));
            if (k % 4 == 0) ins.setNull(5, Types.VARCHAR); else ins.setString(5, "n" + k);
            ins.setLong(6, k * 5);
            ins.addBatch();
          }
          ins.executeBatch();
          c.commit();
          statements += batch;
          sel.setLong(1, i);
          sel.setLong(2, i + batch);
          long k = i;
          try (ResultSet rs = sel.executeQuery()) {
            while (rs.next()) {
              k++;
              if (rs.getLong(1) != k || !rs.getString(2).equals("jdbc 'row' " + k) || rs.getLong(6) != k * 5) {
                mismatches++;
                if (first == null) first = "read " + k + ": " + rs.getLong(1) + " " + rs.getString(2);
              }
            }
          }
          c.commit();
          statements++;
          if (k != i + batch) {
            mismatches++;
            if (first == null) first = "batch " + i + " read back " + (k - i) + " rows";
          }
        } catch (SQLException e) {
          errors++;
          if (first == null) first = e.getSQLState() + " " + e.getMessage();
          c.rollback();
          if (errors > 100) break;
        }
        i += batch;
      }
    }
    System.out.println("{\"statements\": " + statements + ", \"errors\": " + errors + ", \"mismatches\": " + mismatches
        + ", \"first_error\": " + (first == null ? "null" : "\"" + first.replace("\\", "\\\\").replace("\"", "\\\"") + "\"") + "}");
  }
}
