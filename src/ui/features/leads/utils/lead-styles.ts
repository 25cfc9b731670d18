/** Shared looks of the leads' sections. */

import { css, cx } from 'styled-system/css';
import { card } from '../../../components/styles';

export const sectionCard = cx(card(), css({ p: { base: 4, md: 5 } }));
export const sectionTitle = css({ fontSize: 'lg', fontWeight: 'bold', mb: 3 });
