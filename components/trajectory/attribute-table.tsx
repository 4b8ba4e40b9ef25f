import { FoldedText } from './folded-text';
import styles from './step-detail.module.css';
import treeStyles from './span-tree.module.css';

/** Raw attributes as text: keys and values are untrusted, so they are never markup or links. Long
 * values show their head, with "show all". */
export function AttributeTable({ pairs }: { pairs: [string, unknown][] }) {
  if (pairs.length === 0) return <p className="muted">none</p>;
  return (
    <table className={styles.attributes}>
      <tbody>
        {pairs.map(([key, value], k) => (
          <tr key={`${k}:${key}`}>
            <th scope="row">{key}</th>
            <td>
              <FoldedText
                text={typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))}
                className={treeStyles.value}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
