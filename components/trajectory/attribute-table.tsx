import styles from './step-detail.module.css';

/** Raw attributes as text: keys and values are untrusted, so they are never markup or links. */
export function AttributeTable({ pairs }: { pairs: [string, unknown][] }) {
  if (pairs.length === 0) return <p className="muted">none</p>;
  return (
    <table className={styles.attributes}>
      <tbody>
        {pairs.map(([key, value], k) => (
          <tr key={`${k}:${key}`}>
            <th scope="row">{key}</th>
            <td>{typeof value === 'string' ? value : JSON.stringify(value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
