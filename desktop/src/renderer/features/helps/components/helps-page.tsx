import { useState } from 'react';
import { Card, CardHeader, CardPreview, Text, makeStyles, tokens } from '@fluentui/react-components';
import { VideoOff24Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useQuery } from '../../../api/query';
import { ListBody } from '../../../components/list-body';
import { PageContainer, PageContent } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { HELPS_KEY, helpsApi, type Help } from '../api/helps';
import { thumbnailUrl, youtubeId } from '../hooks/youtube';
import { VideoModal } from './video-modal';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: tokens.spacingHorizontalL },
  preview: { aspectRatio: '16 / 9', backgroundColor: tokens.colorNeutralBackground3, display: 'flex', alignItems: 'center', justifyContent: 'center' },
  thumb: { width: '100%', height: '100%', objectFit: 'cover' },
  noVideo: { fontSize: '32px', color: tokens.colorNeutralForeground4 },
  description: { color: tokens.colorNeutralForeground3, whiteSpace: 'pre-wrap', overflow: 'hidden', display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical' },
});

/** /helps: the help videos super users publish, as a grid of cards; a click plays one. */
export default function HelpsPage() {
  const styles = useStyles();
  const { t } = useTranslation('helps');
  const { data, isLoading } = useQuery(HELPS_KEY, helpsApi.list);
  const [playing, setPlaying] = useState<{ help: Help; videoId: string } | null>(null);
  const helps = Array.isArray(data) ? data : [];

  return (
    <PageContainer>
      <PageHeader title={t('title')} />
      <PageContent>
        <ListBody loading={isLoading} empty={helps.length === 0} emptyTitle={t('empty')}>
          <div className={styles.grid}>
            {helps.map((help) => {
              const videoId = youtubeId(help.video);
              return (
                <Card
                  key={help.id}
                  data-testid={`help-card-${help.id}`}
                  aria-label={help.title}
                  onClick={videoId ? () => setPlaying({ help, videoId }) : undefined}
                  onKeyDown={(e) => {
                    if (videoId && (e.key === 'Enter' || e.key === ' ')) {
                      e.preventDefault();
                      setPlaying({ help, videoId });
                    }
                  }}
                  style={videoId ? undefined : { cursor: 'default' }}
                >
                  <CardPreview className={styles.preview}>
                    {videoId ? (
                      <img className={styles.thumb} src={thumbnailUrl(videoId)} alt="" loading="lazy" />
                    ) : (
                      <span className={styles.noVideo} title={t('noVideo')}>
                        <VideoOff24Regular />
                      </span>
                    )}
                  </CardPreview>
                  <CardHeader
                    header={<Text weight="semibold">{help.title}</Text>}
                    description={help.description ? <Text className={styles.description}>{help.description}</Text> : undefined}
                  />
                </Card>
              );
            })}
          </div>
        </ListBody>
      </PageContent>
      {playing ? <VideoModal title={playing.help.title} videoId={playing.videoId} onClose={() => setPlaying(null)} /> : null}
    </PageContainer>
  );
}
